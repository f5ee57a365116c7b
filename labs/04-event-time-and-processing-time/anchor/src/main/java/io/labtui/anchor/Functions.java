package io.labtui.anchor;

import org.apache.flink.api.common.functions.AggregateFunction;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.streaming.api.functions.windowing.ProcessWindowFunction;
import org.apache.flink.streaming.api.windowing.windows.TimeWindow;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;

/** The job's functions, each the Java form of its namesake in gateway_meter.py. */
final class Functions {
    private Functions() {}

    static final long MINUTE_MS = 60_000;

    /** Malformed values, as {"reason","value"}. */
    static final OutputTag<String> MALFORMED = new OutputTag<>("malformed") {};
    /** Records the event-time window dropped as late. */
    static final OutputTag<RequestRecord> LATE = new OutputTag<>("late") {};

    /**
     * parse_event's split: Events go on, malformed values to {@link #MALFORMED} with their
     * reason. A bad value never fails the job.
     */
    static final class SplitMalformed extends ProcessFunction<Parsed, Event> {
        @Override
        public void processElement(Parsed p, Context ctx, Collector<Event> out) {
            Progress.value();
            if (p.event != null) {
                out.collect(p.event);
            } else {
                ctx.output(MALFORMED, new JsonOut().str("reason", p.reason).str("value", p.raw).done());
            }
        }
    }

    /**
     * RequestAssembler, keyed by request_id. State holds the half that arrived first and the
     * event-time timer registered for it, at its timestamp + forget-after. The second half
     * of the other type completes the request: one RequestRecord is emitted (with the
     * timestamp of the element that completed it, as Flink sets it), the state cleared, the
     * timer deleted. A second half of the same type is a duplicate and is ignored. A half
     * still alone when event time passes its timer is forgotten.
     */
    static final class RequestAssembler extends KeyedProcessFunction<String, Event, RequestRecord> {
        private final long forgetAfterMs;
        private transient ValueState<Event> pending;
        private transient ValueState<Long> timer;

        RequestAssembler(long forgetAfterMs) {
            this.forgetAfterMs = forgetAfterMs;
        }

        @Override
        public void open(OpenContext openContext) {
            pending = getRuntimeContext().getState(new ValueStateDescriptor<>("pending", Event.class));
            timer = getRuntimeContext().getState(new ValueStateDescriptor<>("timer", Long.class));
        }

        @Override
        public void processElement(Event event, Context ctx, Collector<RequestRecord> out) throws Exception {
            Event first = pending.value();
            if (first == null) {
                pending.update(event);
                long forgetAt = ctx.timestamp() + forgetAfterMs;
                timer.update(forgetAt);
                ctx.timerService().registerEventTimeTimer(forgetAt);
            } else if (first.started != event.started) {
                out.collect(RequestRecord.join(first, event));
                Progress.request();
                ctx.timerService().deleteEventTimeTimer(timer.value());
                pending.clear();
                timer.clear();
            }
            // else: the same half twice, a duplicate: ignored.
        }

        @Override
        public void onTimer(long timestamp, OnTimerContext ctx, Collector<RequestRecord> out) throws Exception {
            Long at = timer.value();
            if (pending.value() != null && at != null && at == timestamp) {
                pending.clear();
                timer.clear();
            }
        }
    }

    /** TenantCost's accumulator and result: usd summed in arrival order, and a count. */
    public static class Cost {
        public double usd;
        public long requests;

        public Cost() {}
    }

    /** TenantCost: one AggregateFunction for both window assigners. */
    static final class TenantCost implements AggregateFunction<RequestRecord, Cost, Cost> {
        @Override
        public Cost createAccumulator() {
            return new Cost();
        }

        @Override
        public Cost add(RequestRecord r, Cost acc) {
            acc.usd += Prices.usd(r);
            acc.requests++;
            return acc;
        }

        @Override
        public Cost getResult(Cost acc) {
            return acc;
        }

        @Override
        public Cost merge(Cost a, Cost b) {
            Cost m = new Cost();
            m.usd = a.usd + b.usd;
            m.requests = a.requests + b.requests;
            return m;
        }
    }

    /**
     * EmitTenantCostMinute: stamps tenant and window bounds on TenantCost's one
     * pre-aggregated result: {"tenant_id","window_start","window_end","usd","requests"}.
     */
    static final class EmitTenantCostMinute extends ProcessWindowFunction<Cost, String, String, TimeWindow> {
        @Override
        public void process(String tenant, Context ctx, Iterable<Cost> results, Collector<String> out) {
            Cost c = results.iterator().next();
            out.collect(new JsonOut().str("tenant_id", tenant).num("window_start", ctx.window().getStart())
                    .num("window_end", ctx.window().getEnd()).num("usd", c.usd).num("requests", c.requests).done());
            Progress.result();
        }
    }

    /** DescribeLate: a late record with the watermark this operator saw when it arrived. */
    static final class DescribeLate extends ProcessFunction<RequestRecord, String> {
        @Override
        public void processElement(RequestRecord r, Context ctx, Collector<String> out) {
            out.collect(new JsonOut().str("request_id", r.requestId).str("tenant_id", r.tenantId)
                    .str("gateway", r.gateway).num("timestamp", ctx.timestamp())
                    .num("watermark", ctx.timerService().currentWatermark())
                    .num("usd", Prices.usd(r)).done());
            Progress.result();
        }
    }

    /**
     * TraceRecords, keyed by tenant like the windows: each record with its timestamp, the
     * watermark when it arrived, the end of its event-time minute, and whether the watermark
     * had passed that minute (then the event-time window drops it), and seen_at: the
     * processing time at which this operator had it (how far behind its arrival the job ran).
     */
    static final class TraceRecords extends KeyedProcessFunction<String, RequestRecord, String> {
        @Override
        public void processElement(RequestRecord r, Context ctx, Collector<String> out) {
            long ts = ctx.timestamp();
            long watermark = ctx.timerService().currentWatermark();
            long windowEnd = ts - Math.floorMod(ts, MINUTE_MS) + MINUTE_MS;
            out.collect(new JsonOut().str("request_id", r.requestId).str("tenant_id", r.tenantId)
                    .str("gateway", r.gateway).num("timestamp", ts).num("watermark", watermark)
                    .num("event_window_end", windowEnd).bool("late", watermark >= windowEnd - 1)
                    .num("seen_at", ctx.timerService().currentProcessingTime()).done());
            Progress.result();
        }
    }
}
