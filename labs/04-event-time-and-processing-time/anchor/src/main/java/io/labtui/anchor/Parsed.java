package io.labtui.anchor;

/**
 * A value as the source read it: the Event it parses to, or the reason it does not and the
 * value itself, for the malformed side output. A Flink POJO.
 */
public class Parsed {
    /** The event, or null when the value is malformed. */
    public Event event;
    /** Why the value is malformed, or null. */
    public String reason;
    /** The value, kept only when it is malformed. */
    public String raw;

    public Parsed() {}

    /** Parses one value of gateway-events. */
    static Parsed of(String raw) {
        Parsed p = new Parsed();
        try {
            p.event = EventParser.parse(raw);
        } catch (EventParser.MalformedEvent e) {
            p.reason = e.getMessage();
            p.raw = raw;
        }
        return p;
    }

    /** A line that is not a record of the recording format. */
    static Parsed badLine(String reason, String line) {
        Parsed p = new Parsed();
        p.reason = reason;
        p.raw = line;
        return p;
    }
}
