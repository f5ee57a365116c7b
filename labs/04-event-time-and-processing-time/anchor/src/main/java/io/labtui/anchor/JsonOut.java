package io.labtui.anchor;

import java.math.BigDecimal;

/**
 * Writes the print sinks' JSON objects in the shape of the lab's job ({@code json.dumps} with
 * compact separators, keys in the order given): strings escaped as Python escapes them
 * (non-ASCII as backslash-u escapes), doubles as a decimal that reads back as the same double.
 */
final class JsonOut {
    private final StringBuilder b = new StringBuilder(160);
    private boolean first = true;

    JsonOut() {
        b.append('{');
    }

    JsonOut str(String key, String v) {
        name(key);
        quote(b, v);
        return this;
    }

    JsonOut num(String key, long v) {
        name(key);
        b.append(v);
        return this;
    }

    JsonOut num(String key, double v) {
        name(key);
        b.append(number(v));
        return this;
    }

    JsonOut bool(String key, boolean v) {
        name(key);
        b.append(v);
        return this;
    }

    /** The object, closed. */
    String done() {
        return b.append('}').toString();
    }

    private void name(String key) {
        if (!first) {
            b.append(',');
        }
        first = false;
        quote(b, key);
        b.append(':');
    }

    /** s as a JSON string, escaped as Python's json.dumps escapes it. */
    static String quote(String s) {
        StringBuilder sb = new StringBuilder(s.length() + 2);
        quote(sb, s);
        return sb.toString();
    }

    /** s as Python's json.dumps(s, ensure_ascii=False) writes it: non-ASCII as it is. */
    static String quoteUnicode(String s) {
        StringBuilder sb = new StringBuilder(s.length() + 2);
        sb.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x20 || c == '"' || c == '\\') {
                quoteChar(sb, c);
            } else {
                sb.append(c);
            }
        }
        return sb.append('"').toString();
    }

    private static void quote(StringBuilder sb, String s) {
        sb.append('"');
        for (int i = 0; i < s.length(); i++) {
            quoteChar(sb, s.charAt(i));
        }
        sb.append('"');
    }

    private static void quoteChar(StringBuilder sb, char c) {
        switch (c) {
            case '"' -> sb.append("\\\"");
            case '\\' -> sb.append("\\\\");
            case '\n' -> sb.append("\\n");
            case '\r' -> sb.append("\\r");
            case '\t' -> sb.append("\\t");
            case '\b' -> sb.append("\\b");
            case '\f' -> sb.append("\\f");
            default -> {
                if (c < 0x20 || c > 0x7E) {
                    sb.append(String.format("\\u%04x", (int) c));
                } else {
                    sb.append(c);
                }
            }
        }
    }

    /**
     * A double as JSON: Double.toString when it reads back as the same double (Java 17's is
     * not always the shortest such decimal, but it is exact enough for any JSON reader), else
     * the exact decimal expansion.
     */
    static String number(double v) {
        String s = Double.toString(v);
        if (Double.parseDouble(s) == v) {
            return s;
        }
        return new BigDecimal(v).toString();
    }
}
