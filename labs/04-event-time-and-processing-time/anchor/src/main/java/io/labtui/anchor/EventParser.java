package io.labtui.anchor;

/**
 * Parses a value of gateway-events with exactly the rules of the event contract the lab's
 * job (gateway_meter.py's {@code _decode} and {@code parse_event}) and labtui's parser keep,
 * checked in the same order, with the same reasons (../job/event-contract.jsonl is the table
 * both sides and this one are tested on):
 *
 * <ul>
 *   <li>the value is one JSON object, strictly (anything else: "not a JSON event object: ...",
 *       worded by this reader);
 *   <li>keys match exactly, as the gateway writes them; unknown keys are ignored; the last
 *       occurrence of a key wins and null is the same as no key;
 *   <li>every occurrence of a known key must be of its type: the five names strings, ts and
 *       the token counts integers in JSON's integer syntax from -(2^63-1) to 2^63-1;
 *   <li>then: the type is RequestStarted (with prompt_tokens) or RequestCompleted (with
 *       completion_tokens); request_id, tenant_id, model and gateway are present and not
 *       empty; ts is present; no token count is negative; the model is priced; ts lies in a
 *       one-minute window a long holds (TS_MIN to TS_MAX).
 * </ul>
 */
final class EventParser {
    /** A value that is not a valid Event; the message is the reason. */
    static final class MalformedEvent extends Exception {
        MalformedEvent(String reason) {
            super(reason, null, false, false);
        }
    }

    private static final String[] FIELDS = {
        "type", "request_id", "tenant_id", "model", "gateway", "ts", "prompt_tokens", "completion_tokens"
    };
    private static final int TYPE = 0, REQUEST_ID = 1, TENANT_ID = 2, MODEL = 3, GATEWAY = 4,
            TS = 5, PROMPT = 6, COMPLETION = 7, FIRST_INT = TS;

    /**
     * The first and the last ts whose one-minute window a long holds: outside them
     * TimeWindow.getWindowStartWithOffset, then start + size, overflows.
     */
    static final long TS_MIN = -9223372036854720000L, TS_MAX = 9223372036854719999L;

    private EventParser() {}

    /** Parses one value, or fails with the reason it is malformed. */
    static Event parse(String raw) throws MalformedEvent {
        String[] strs = new String[FIRST_INT];
        long[] ints = new long[FIELDS.length - FIRST_INT];
        boolean[] seen = new boolean[FIELDS.length];
        String typeError = null; // the first, reported once the whole value is known to be JSON
        JsonReader r = new JsonReader(raw);
        try {
            r.skipSpace();
            if (!r.accept('{')) {
                r.next(); // a syntax error surfaces first, as in json.loads
                r.expectEnd();
                throw new MalformedEvent("not a JSON event object: not an object");
            }
            if (!r.accept('}')) {
                do {
                    String key = r.key();
                    r.next();
                    int f = field(key);
                    if (f < 0 || typeError != null) {
                        continue;
                    }
                    if (r.kind == JsonReader.Kind.NULL) {
                        seen[f] = false;
                        continue;
                    }
                    if (f < FIRST_INT) {
                        if (r.kind != JsonReader.Kind.STRING) {
                            typeError = FIELDS[f] + " is not a string";
                            continue;
                        }
                        strs[f] = r.string;
                    } else {
                        if (r.kind != JsonReader.Kind.INTEGER) {
                            typeError = FIELDS[f] + " is not an integer";
                            continue;
                        }
                        if (!r.inRange || r.integer == Long.MIN_VALUE) {
                            typeError = FIELDS[f] + " is out of range";
                            continue;
                        }
                        ints[f - FIRST_INT] = r.integer;
                    }
                    seen[f] = true;
                } while (r.accept(','));
                r.expect('}', "',' delimiter");
            }
            r.expectEnd();
        } catch (JsonReader.SyntaxError e) {
            throw new MalformedEvent("not a JSON event object: " + e.getMessage());
        }
        if (typeError != null) {
            throw new MalformedEvent(typeError);
        }
        return validate(strs, ints, seen);
    }

    private static Event validate(String[] strs, long[] ints, boolean[] seen) throws MalformedEvent {
        Event e = new Event();
        String type = seen[TYPE] ? strs[TYPE] : "";
        switch (type) {
            case "RequestStarted" -> {
                if (!seen[PROMPT]) {
                    throw new MalformedEvent("RequestStarted without prompt_tokens");
                }
                e.started = true;
                e.promptTokens = ints[PROMPT - FIRST_INT];
            }
            case "RequestCompleted" -> {
                if (!seen[COMPLETION]) {
                    throw new MalformedEvent("RequestCompleted without completion_tokens");
                }
                e.completionTokens = ints[COMPLETION - FIRST_INT];
            }
            case "" -> throw new MalformedEvent("missing field type");
            default -> throw new MalformedEvent("unknown event type " + JsonOut.quoteUnicode(type));
        }
        for (int f = REQUEST_ID; f <= GATEWAY; f++) {
            if (!seen[f] || strs[f].isEmpty()) {
                throw new MalformedEvent("missing field " + FIELDS[f]);
            }
        }
        if (!seen[TS]) {
            throw new MalformedEvent("missing field ts");
        }
        if (e.promptTokens < 0 || e.completionTokens < 0) {
            throw new MalformedEvent("negative token count");
        }
        if (!Prices.priced(strs[MODEL])) {
            throw new MalformedEvent("model " + JsonOut.quoteUnicode(strs[MODEL]) + " is not in the price table");
        }
        long ts = ints[TS - FIRST_INT];
        if (ts < TS_MIN || ts > TS_MAX) {
            throw new MalformedEvent("ts " + ts + " is out of range for a one-minute window: a window must start"
                    + " and end within a long, so ts is accepted from " + TS_MIN + " to " + TS_MAX);
        }
        e.requestId = strs[REQUEST_ID];
        e.tenantId = strs[TENANT_ID];
        e.model = strs[MODEL];
        e.gateway = strs[GATEWAY];
        e.ts = ts;
        return e;
    }

    /** The field a key names, exactly; -1 for none. */
    static int field(String key) {
        for (int f = 0; f < FIELDS.length; f++) {
            if (FIELDS[f].equals(key)) {
                return f;
            }
        }
        return -1;
    }
}
