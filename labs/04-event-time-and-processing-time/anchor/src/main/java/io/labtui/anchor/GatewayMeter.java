package io.labtui.anchor;

import java.io.BufferedOutputStream;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.time.Duration;
import org.apache.flink.api.common.eventtime.SerializableTimestampAssigner;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.connector.file.src.FileSource;
import org.apache.flink.connector.file.src.reader.TextLineInputFormat;
import org.apache.flink.connector.kafka.source.KafkaSource;
import org.apache.flink.connector.kafka.source.enumerator.initializer.OffsetsInitializer;
import org.apache.flink.core.fs.Path;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.windowing.assigners.TumblingEventTimeWindows;
import org.apache.flink.streaming.api.windowing.assigners.TumblingProcessingTimeWindows;

/**
 * GatewayMeter, Lab 4's job, in Java on the DataStream API of Apache Flink 2.2.1, run on a
 * local MiniCluster in this JVM: the same pipeline, options and print lines as the lab's
 * PyFlink job (job/gateway_meter.py), without Python in the way.
 *
 * <pre>
 *   values ─► parse_event ─► timestamps/watermarks ─► RequestAssembler (keyed by request_id)
 *     records ─► keyBy(tenant) ─► TumblingProcessingTimeWindows(1 min) ─► "processing-time>"
 *     records ─► keyBy(tenant) ─► TumblingEventTimeWindows(1 min)      ─► "event-time>"
 *                                                   └─ late side output ─► "late>"
 *     records ─► keyBy(tenant) ─► TraceRecords                          ─► "trace>"
 *     malformed values                                                  ─► "malformed>"
 * </pre>
 *
 * The values come from a recording file (FileSource; the job ends with the file, so the
 * final MAX_WATERMARK fires every event-time window) or from the lab's Kafka topic
 * (KafkaSource, unbounded). See {@link Options#USAGE}.
 */
public final class GatewayMeter {
    private GatewayMeter() {}

    public static void main(String[] args) throws Exception {
        Options o;
        try {
            o = Options.parse(args);
        } catch (Options.Bad e) {
            System.err.println("anchor: " + e.getMessage());
            System.exit(2);
            return;
        }
        if (o == null) {
            System.out.println(Options.USAGE);
            return;
        }
        if (o.file != null) {
            runFile(o);
        } else {
            StreamExecutionEnvironment env = environment(o);
            build(env, o);
            env.execute("gateway-meter-anchor");
        }
    }

    /**
     * Runs the job on the file o.repeat times, each on a fresh MiniCluster in this JVM (the
     * JIT stays warm), printing the last run's lines and every run's timing on stderr.
     */
    private static void runFile(Options o) throws Exception {
        PrintStream stdout = new PrintStream(new BufferedOutputStream(new FileOutputStream(FileDescriptor.out), 1 << 16), false);
        PrintStream discard = new PrintStream(OutputStream.nullOutputStream());
        for (int run = 1; run <= o.repeat; run++) {
            // The print sinks take System.out when they open.
            System.setOut(run == o.repeat ? stdout : discard);
            Progress.reset();
            long t0 = System.nanoTime();
            StreamExecutionEnvironment env = environment(o);
            build(env, o);
            env.execute("gateway-meter-anchor");
            long total = System.nanoTime() - t0;
            long busy = Progress.busyNanos();
            System.err.printf("anchor: run %d of %d: %d values, %d requests assembled, %d results;"
                            + " first value to last result %.3f s (%d values/s); execute() %.3f s%n",
                    run, o.repeat, Progress.values(), Progress.requests(), Progress.results(),
                    busy / 1e9, busy > 0 ? Math.round(Progress.values() * 1e9 / busy) : 0, total / 1e9);
        }
        stdout.flush();
    }

    private static StreamExecutionEnvironment environment(Options o) {
        Configuration conf = new Configuration();
        conf.set(PipelineOptions.AUTO_WATERMARK_INTERVAL, Duration.ofMillis(o.watermarkIntervalMs));
        conf.set(RestOptions.BIND_ADDRESS, "127.0.0.1");
        conf.set(RestOptions.ADDRESS, "127.0.0.1");
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.setParallelism(o.parallelism);
        return env;
    }

    /** forMonotonousTimestamps() or forBoundedOutOfOrderness, with idleness if asked. */
    private static <T> WatermarkStrategy<T> strategy(Options o, SerializableTimestampAssigner<T> assigner) {
        WatermarkStrategy<T> s = o.outOfOrdernessMs == 0 ? WatermarkStrategy.forMonotonousTimestamps()
                : WatermarkStrategy.forBoundedOutOfOrderness(Duration.ofMillis(o.outOfOrdernessMs));
        if (o.idlenessMs > 0) {
            s = s.withIdleness(Duration.ofMillis(o.idlenessMs));
        }
        return s.withTimestampAssigner(assigner);
    }

    /** Wires the pipeline into env. */
    static void build(StreamExecutionEnvironment env, Options o) {
        DataStream<Parsed> values;
        if (o.file != null) {
            FileSource<String> file = FileSource.forRecordStreamFormat(new TextLineInputFormat(), new Path(o.file)).build();
            values = env.fromSource(file, WatermarkStrategy.noWatermarks(), "recording").setParallelism(1)
                    .flatMap(new RecordingValues()).setParallelism(1).name("recording values");
        } else {
            KafkaSource<Parsed> kafka = KafkaSource.<Parsed>builder()
                    .setBootstrapServers(o.bootstrap)
                    .setTopics(o.topic)
                    .setGroupId(o.groupId)
                    .setStartingOffsets(o.earliest ? OffsetsInitializer.earliest() : OffsetsInitializer.latest())
                    .setDeserializer(new KafkaValues(o.sourceWatermarks))
                    .build();
            // --watermarks source: the strategy on the source, one generator per partition;
            // KafkaValues keeps malformed values from it.
            WatermarkStrategy<Parsed> onSource = o.sourceWatermarks
                    ? strategy(o, (p, ts) -> p.event.ts)
                    : WatermarkStrategy.noWatermarks();
            values = env.fromSource(kafka, onSource, "gateway-events");
        }

        SingleOutputStreamOperator<Event> parsed = values.process(new Functions.SplitMalformed()).name("parse_event");
        parsed.getSideOutput(Functions.MALFORMED).print("malformed").setParallelism(1);

        DataStream<Event> events = o.sourceWatermarks ? parsed
                : parsed.assignTimestampsAndWatermarks(strategy(o, (e, ts) -> e.ts)).name("event timestamps");

        DataStream<RequestRecord> records = events
                .keyBy(e -> e.requestId, Types.STRING)
                .process(new Functions.RequestAssembler(o.forgetAfterMs))
                .name("RequestAssembler").uid("request-assembler");
        if (o.startedTs) {
            records = records.assignTimestampsAndWatermarks(strategy(o, (r, ts) -> r.startedTs)).name("started_ts");
        }

        records.keyBy(r -> r.tenantId, Types.STRING)
                .window(TumblingProcessingTimeWindows.of(Duration.ofMinutes(1)))
                .aggregate(new Functions.TenantCost(), new Functions.EmitTenantCostMinute())
                .name("tenant-cost-processing-time").uid("tenant-cost-processing-time")
                .print("processing-time").setParallelism(1);

        SingleOutputStreamOperator<String> eventTime = records.keyBy(r -> r.tenantId, Types.STRING)
                .window(TumblingEventTimeWindows.of(Duration.ofMinutes(1)))
                .sideOutputLateData(Functions.LATE)
                .aggregate(new Functions.TenantCost(), new Functions.EmitTenantCostMinute())
                .name("tenant-cost-event-time").uid("tenant-cost-event-time");
        eventTime.print("event-time").setParallelism(1);
        eventTime.getSideOutput(Functions.LATE).process(new Functions.DescribeLate()).name("late")
                .print("late").setParallelism(1);

        if (o.trace) {
            records.keyBy(r -> r.tenantId, Types.STRING).process(new Functions.TraceRecords()).name("trace")
                    .print("trace").setParallelism(1);
        }
    }
}
