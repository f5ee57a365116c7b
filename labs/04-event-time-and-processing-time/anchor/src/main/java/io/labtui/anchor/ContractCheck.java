package io.labtui.anchor;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.List;

/**
 * Checks EventParser against the event contract's table (../job/event-contract.jsonl, which
 * labtui's parser and the lab's job are tested on too): every case's value, decoded from its
 * bytes as Flink's SimpleStringSchema decodes them, parses to the case's event or fails with
 * its error ("not a JSON event object" stands for any JSON syntax error: the readers word
 * those differently). Prints each failure and `N passed, N failed`; exits 1 on a failure.
 *
 * <pre>  java -cp ... io.labtui.anchor.ContractCheck event-contract.jsonl</pre>
 */
public final class ContractCheck {
    private ContractCheck() {}

    public static void main(String[] args) throws Exception {
        List<String> lines = Files.readAllLines(Path.of(args[0]), StandardCharsets.UTF_8);
        int passed = 0, failed = 0;
        for (String line : lines) {
            if (line.isBlank()) {
                continue;
            }
            String problem = check(line);
            if (problem == null) {
                passed++;
            } else {
                failed++;
                System.out.println("FAIL " + problem);
            }
        }
        System.out.println("event contract: " + passed + " passed, " + failed + " failed");
        System.exit(failed == 0 ? 0 : 1);
    }

    /** One case: null when it holds, else what differs. */
    static String check(String line) throws JsonReader.SyntaxError {
        String name = null, value = null, error = null, event = null;
        JsonReader r = new JsonReader(line);
        r.expect('{', "a case object");
        do {
            String key = r.key();
            r.next();
            switch (key) {
                case "name" -> name = r.string;
                case "value" -> value = r.string;
                case "value_hex" -> value = new String(HexFormat.of().parseHex(r.string), StandardCharsets.UTF_8);
                case "error" -> error = r.string;
                case "event" -> event = line.substring(r.start, r.end);
                default -> { }
            }
        } while (r.accept(','));
        String got;
        try {
            got = describe(EventParser.parse(value));
        } catch (EventParser.MalformedEvent e) {
            got = "error: " + e.getMessage();
            if (error != null && error.startsWith("not a JSON event object")
                    && e.getMessage().startsWith("not a JSON event object")) {
                return null;
            }
        }
        String want = error != null ? "error: " + error : describe(event);
        return want.equals(got) ? null : name + ": want " + want + ", got " + got;
    }

    private static String describe(Event e) {
        return String.join(" ", e.started ? "RequestStarted" : "RequestCompleted", e.requestId, e.tenantId,
                e.model, e.gateway, Long.toString(e.ts), Long.toString(e.promptTokens), Long.toString(e.completionTokens));
    }

    /** The table's event object, in describe's shape. */
    private static String describe(String eventJson) throws JsonReader.SyntaxError {
        String[] f = new String[8];
        String[] names = {"type", "request_id", "tenant_id", "model", "gateway", "ts", "prompt_tokens", "completion_tokens"};
        JsonReader r = new JsonReader(eventJson);
        r.expect('{', "an event object");
        do {
            String key = r.key();
            r.next();
            for (int i = 0; i < names.length; i++) {
                if (names[i].equals(key)) {
                    f[i] = r.kind == JsonReader.Kind.STRING ? r.string : Long.toString(r.integer);
                }
            }
        } while (r.accept(','));
        return String.join(" ", f);
    }
}
