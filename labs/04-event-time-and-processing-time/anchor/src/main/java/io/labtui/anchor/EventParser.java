package io.labtui.anchor;

/**
 * Parses a value of gateway-events with exactly the rules of the lab's job
 * (gateway_meter.py's {@code _decode} and {@code parse_event}), checked in the same order:
 *
 * <ul>
 *   <li>the value is one JSON object (anything else: "not a JSON event object");
 *   <li>keys match the eight field names exactly or after Python's {@code str.casefold()};
 *       the last duplicate wins; null means absent; unknown keys are ignored;
 *   <li>a known field of the wrong JSON type is an error: the five names must be strings, ts
 *       and the token counts 64-bit integers (true, 1.0 and 1e3 are not);
 *   <li>then: the type is RequestStarted (with prompt_tokens) or RequestCompleted (with
 *       completion_tokens); request_id, tenant_id, model and gateway are present and not
 *       empty; ts is present; no token count is negative; the model is priced.
 * </ul>
 *
 * The reasons read as the Python job's do, but for the JSON syntax errors' wording.
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

    private EventParser() {}

    /** Parses one value, or fails with the reason it is malformed. */
    static Event parse(String raw) throws MalformedEvent {
        String[] strs = new String[FIRST_INT];
        long[] ints = new long[FIELDS.length - FIRST_INT];
        boolean[] seen = new boolean[FIELDS.length];
        String typeError = null;
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
                    if (f < 0 || r.kind == JsonReader.Kind.NULL || typeError != null) {
                        continue;
                    }
                    if (f < FIRST_INT) {
                        if (r.kind != JsonReader.Kind.STRING) {
                            typeError = "not a JSON event object: " + FIELDS[f] + " is not a string";
                            continue;
                        }
                        strs[f] = r.string;
                    } else {
                        if (r.kind != JsonReader.Kind.INTEGER || !r.inRange) {
                            typeError = "not a JSON event object: " + FIELDS[f] + " is not a 64-bit integer";
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
            default -> throw new MalformedEvent("unknown event type " + JsonOut.quote(type));
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
            throw new MalformedEvent("model " + JsonOut.quote(strs[MODEL]) + " is not in PRICE_PER_1K");
        }
        e.requestId = strs[REQUEST_ID];
        e.tenantId = strs[TENANT_ID];
        e.model = strs[MODEL];
        e.gateway = strs[GATEWAY];
        e.ts = ints[TS - FIRST_INT];
        return e;
    }

    /** The field a key names: exactly, else after Python's casefold; -1 for none. */
    static int field(String key) {
        for (int f = 0; f < FIELDS.length; f++) {
            if (FIELDS[f].equals(key)) {
                return f;
            }
        }
        String folded = casefoldAscii(key);
        if (folded == null) {
            return -1;
        }
        for (int f = 0; f < FIELDS.length; f++) {
            if (FIELDS[f].equals(folded)) {
                return f;
            }
        }
        return -1;
    }

    /**
     * Python's {@code key.casefold()} when the result is all ASCII, else null (then it can
     * equal no field name). The characters outside ASCII whose full case folding is ASCII are
     * the Kelvin sign, the long s, the sharp s (both cases) and the Latin ligatures ff to st
     * (Unicode's CaseFolding.txt); every other one folds to something outside ASCII.
     */
    static String casefoldAscii(String key) {
        StringBuilder b = new StringBuilder(key.length());
        for (int i = 0; i < key.length(); i++) {
            char c = key.charAt(i);
            if (c < 0x80) {
                b.append(c >= 'A' && c <= 'Z' ? (char) (c + 32) : c);
                continue;
            }
            switch (c) {
                case '\u212A' -> b.append('k');
                case '\u017F' -> b.append('s');
                case '\u00DF', '\u1E9E' -> b.append("ss");
                case '\uFB00' -> b.append("ff");
                case '\uFB01' -> b.append("fi");
                case '\uFB02' -> b.append("fl");
                case '\uFB03' -> b.append("ffi");
                case '\uFB04' -> b.append("ffl");
                case '\uFB05', '\uFB06' -> b.append("st");
                default -> {
                    return null;
                }
            }
        }
        return b.toString();
    }
}
