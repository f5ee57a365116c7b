package io.labtui.anchor;

import org.apache.flink.api.common.functions.FlatMapFunction;
import org.apache.flink.util.Collector;

/**
 * A line of a recording (labtui's format, {"partition",…,"value":{…}}, or kcat's -J envelope
 * with "payload") to the value it holds, parsed: what a Kafka source would have read. A value
 * that is an object is parsed from its own text; one that is a string is the string. Records
 * without a value (tombstones) and blank lines give nothing; a line that is not a record goes
 * to the malformed output with its reason.
 */
final class RecordingValues implements FlatMapFunction<String, Parsed> {
    @Override
    public void flatMap(String line, Collector<Parsed> out) {
        if (line.isBlank()) {
            return;
        }
        JsonReader r = new JsonReader(line);
        String value = null;
        boolean found = false;
        try {
            r.expect('{', "a recording line, a JSON object");
            if (!r.accept('}')) {
                do {
                    String key = r.key();
                    r.next();
                    if (key.equals("value") || (key.equals("payload") && !found)) {
                        found = true;
                        value = switch (r.kind) {
                            case NULL -> null;
                            case STRING -> r.string;
                            default -> line.substring(r.start, r.end);
                        };
                    }
                } while (r.accept(','));
                r.expect('}', "',' delimiter");
            }
            r.expectEnd();
        } catch (JsonReader.SyntaxError e) {
            out.collect(Parsed.badLine("not a recording line: " + e.getMessage(), line));
            return;
        }
        if (value != null) {
            out.collect(Parsed.of(value));
        }
    }
}
