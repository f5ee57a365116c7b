package io.labtui.anchor;

/**
 * One value of gateway-events: half of a request. A Flink POJO (public fields, a public
 * constructor without arguments), so Flink serializes it without Kryo.
 */
public class Event {
    /** True for RequestStarted, false for RequestCompleted. */
    public boolean started;
    public String requestId;
    public String tenantId;
    public String model;
    public String gateway;
    /** When it happened at the gateway, in milliseconds since the epoch. */
    public long ts;
    /** Set on RequestStarted, 0 on RequestCompleted. */
    public long promptTokens;
    /** Set on RequestCompleted, 0 on RequestStarted. */
    public long completionTokens;

    public Event() {}
}
