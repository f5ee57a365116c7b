package io.labtui.anchor;

/**
 * One request with both halves joined, what the RequestAssembler emits: tenant, model and
 * gateway are the RequestStarted's, as in the lab's job and in gateway.Join in Go.
 */
public class RequestRecord {
    public String requestId;
    public String tenantId;
    public String model;
    public String gateway;
    public long startedTs;
    public long completedTs;
    public long promptTokens;
    public long completionTokens;

    public RequestRecord() {}

    /** The record of two halves of one request, given in either order. */
    static RequestRecord join(Event a, Event b) {
        Event started = a.started ? a : b;
        Event completed = a.started ? b : a;
        RequestRecord r = new RequestRecord();
        r.requestId = started.requestId;
        r.tenantId = started.tenantId;
        r.model = started.model;
        r.gateway = started.gateway;
        r.startedTs = started.ts;
        r.completedTs = completed.ts;
        r.promptTokens = started.promptTokens;
        r.completionTokens = completed.completionTokens;
        return r;
    }
}
