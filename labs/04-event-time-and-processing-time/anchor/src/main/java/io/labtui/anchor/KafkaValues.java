package io.labtui.anchor;

import java.nio.charset.StandardCharsets;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.connector.kafka.source.reader.deserializer.KafkaRecordDeserializationSchema;
import org.apache.flink.util.Collector;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * The Kafka record's value as UTF-8 text (as SimpleStringSchema reads it), parsed in the
 * source, so that a WatermarkStrategy on the source can read the event's ts. A record
 * without a value (a tombstone) gives nothing: SimpleStringSchema would fail the job on it.
 *
 * <p>With watermarks on the source (dropMalformed), a malformed value is dropped here, before
 * its partition's watermark generator sees it, as labtui's source does: it is no activity of
 * its partition (for withIdleness) and moves no watermark. It is still reported, printed here
 * as the malformed print sink would print it.
 */
final class KafkaValues implements KafkaRecordDeserializationSchema<Parsed> {
    private final boolean dropMalformed;

    KafkaValues(boolean dropMalformed) {
        this.dropMalformed = dropMalformed;
    }

    @Override
    public void deserialize(ConsumerRecord<byte[], byte[]> record, Collector<Parsed> out) {
        if (record.value() == null) {
            return;
        }
        Parsed p = Parsed.of(new String(record.value(), StandardCharsets.UTF_8));
        if (p.event == null && dropMalformed) {
            String line = "malformed> " + new JsonOut().str("reason", p.reason).str("value", p.raw).done();
            synchronized (System.out) {
                System.out.println(line);
            }
            return;
        }
        out.collect(p);
    }

    @Override
    public TypeInformation<Parsed> getProducedType() {
        return TypeInformation.of(Parsed.class);
    }
}
