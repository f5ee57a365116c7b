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
 */
final class KafkaValues implements KafkaRecordDeserializationSchema<Parsed> {
    @Override
    public void deserialize(ConsumerRecord<byte[], byte[]> record, Collector<Parsed> out) {
        if (record.value() != null) {
            out.collect(Parsed.of(new String(record.value(), StandardCharsets.UTF_8)));
        }
    }

    @Override
    public TypeInformation<Parsed> getProducedType() {
        return TypeInformation.of(Parsed.class);
    }
}
