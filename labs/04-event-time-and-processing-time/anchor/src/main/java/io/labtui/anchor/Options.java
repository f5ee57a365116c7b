package io.labtui.anchor;

import java.math.BigDecimal;

/**
 * The anchor's command line. Durations are written as labtui's flags take them (Go's
 * time.ParseDuration: 200ms, 40s, 10m, 1m30s, 0) and must be whole milliseconds. A bad
 * option is one sentence naming it and what it accepts.
 */
final class Options {
    static final String USAGE = """
            GatewayMeter, Lab 4's job in Java on Apache Flink 2.2.1 (local MiniCluster)

            Read a recording (file mode) or the lab's Kafka topic (Kafka mode):
              run.sh --file RECORDING [--repeat N] [job options]
              run.sh --bootstrap HOST:PORT [--topic T] [--group-id G] [--starting-offsets earliest|latest] [job options]

            Job options (labtui's names and defaults):
              --timestamp completed_ts|started_ts  the record field event time reads (completed_ts)
              --out-of-orderness D       bounded out-of-orderness; 0 is forMonotonousTimestamps() (0)
              --watermark-interval D     pipeline.auto-watermark-interval; 0 disables periodic watermarks (200ms)
              --watermarks stream|source stream: the assigner after the parse (the lab's shape); source: the
                                         WatermarkStrategy on fromSource, one generator per partition (Kafka only) (stream)
              --idleness D               withIdleness(D); 0 is none (0)
              --forget-after D           how long (event time) the RequestAssembler keeps half a request (10m)
              --no-trace                 leave out the trace> lines
              --parallelism N            every operator but the source and the print sinks (1)
            File mode:
              --repeat N                 run the job N times in this JVM, printing only the last run's lines;
                                         each run's timing goes to stderr (1)
            Prints what the lab's job prints: processing-time>, event-time>, late>, trace>, malformed> lines.""";

    String file;
    String bootstrap;
    String topic = "gateway-events";
    String groupId = "gateway-meter-anchor";
    boolean earliest = true;
    boolean startedTs;
    long outOfOrdernessMs;
    long watermarkIntervalMs = 200;
    boolean sourceWatermarks;
    long idlenessMs;
    long forgetAfterMs = 600_000;
    boolean trace = true;
    int parallelism = 1;
    int repeat = 1;

    private static final java.util.Set<String> VALUED = java.util.Set.of("--file", "--bootstrap", "--topic",
            "--group-id", "--starting-offsets", "--timestamp", "--out-of-orderness", "--watermark-interval",
            "--watermarks", "--idleness", "--forget-after", "--parallelism", "--repeat");

    /** A bad command line; the message is the sentence to print. */
    static final class Bad extends Exception {
        Bad(String message) {
            super(message, null, false, false);
        }
    }

    /** Parses the arguments; returns null when help was asked for. */
    static Options parse(String[] args) throws Bad {
        Options o = new Options();
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (a.equals("-h") || a.equals("--help")) {
                return null;
            }
            if (a.equals("--no-trace")) {
                o.trace = false;
                continue;
            }
            String v = null;
            int eq = a.indexOf('=');
            if (a.startsWith("--") && eq > 0) {
                v = a.substring(eq + 1);
                a = a.substring(0, eq);
            }
            if (!VALUED.contains(a)) {
                throw new Bad((a.startsWith("-") ? "unknown option " : "unexpected argument ") + a + " (see --help)");
            }
            if (v == null) {
                if (i + 1 >= args.length) {
                    throw new Bad("option " + a + " needs a value (see --help)");
                }
                v = args[++i];
            }
            switch (a) {
                case "--file" -> o.file = v;
                case "--bootstrap" -> o.bootstrap = v;
                case "--topic" -> o.topic = v;
                case "--group-id" -> o.groupId = v;
                case "--starting-offsets" -> o.earliest = choice(a, v, "earliest", "latest");
                case "--timestamp" -> o.startedTs = !choice(a, v, "completed_ts", "started_ts");
                case "--out-of-orderness" -> o.outOfOrdernessMs = durationMs(a, v);
                case "--watermark-interval" -> o.watermarkIntervalMs = durationMs(a, v);
                case "--watermarks" -> o.sourceWatermarks = !choice(a, v, "stream", "source");
                case "--idleness" -> o.idlenessMs = durationMs(a, v);
                case "--forget-after" -> o.forgetAfterMs = durationMs(a, v);
                case "--parallelism" -> o.parallelism = positive(a, v);
                case "--repeat" -> o.repeat = positive(a, v);
                default -> throw new IllegalStateException(a);
            }
        }
        if ((o.file == null) == (o.bootstrap == null)) {
            throw new Bad("give exactly one of --file RECORDING and --bootstrap HOST:PORT (see --help)");
        }
        if (o.file != null && o.sourceWatermarks) {
            throw new Bad("--watermarks source needs the Kafka source (--bootstrap): a recording file is one split, not partitions");
        }
        if (o.bootstrap != null && o.repeat != 1) {
            throw new Bad("--repeat is for a recording file: the Kafka source never ends");
        }
        return o;
    }

    private static boolean choice(String name, String v, String yes, String no) throws Bad {
        if (v.equals(yes)) {
            return true;
        }
        if (v.equals(no)) {
            return false;
        }
        throw new Bad(name + " must be " + yes + " or " + no + ", not \"" + v + "\"");
    }

    private static int positive(String name, String v) throws Bad {
        try {
            int n = Integer.parseInt(v);
            if (n > 0) {
                return n;
            }
        } catch (NumberFormatException e) {
            // below
        }
        throw new Bad(name + " must be a whole number of at least 1, not \"" + v + "\"");
    }

    /**
     * A Go duration (a sequence of decimal numbers with a unit each: ns, us, µs, ms, s, m, h;
     * or 0) in milliseconds. Negative and fractional-millisecond durations are refused.
     */
    static long durationMs(String name, String v) throws Bad {
        String what = name + " must be a duration such as 200ms, 40s or 10m (whole milliseconds, not negative), not \"" + v + "\"";
        if (v.equals("0")) {
            return 0;
        }
        BigDecimal ns = BigDecimal.ZERO;
        int i = 0;
        if (v.isEmpty()) {
            throw new Bad(what);
        }
        while (i < v.length()) {
            int start = i;
            while (i < v.length() && (Character.isDigit(v.charAt(i)) || v.charAt(i) == '.')) {
                i++;
            }
            if (i == start) {
                throw new Bad(what);
            }
            BigDecimal n;
            try {
                n = new BigDecimal(v.substring(start, i));
            } catch (NumberFormatException e) {
                throw new Bad(what);
            }
            int u = i;
            while (i < v.length() && !Character.isDigit(v.charAt(i)) && v.charAt(i) != '.') {
                i++;
            }
            long scale = switch (v.substring(u, i)) {
                case "ns" -> 1L;
                case "us", "\u00b5s", "\u03bcs" -> 1_000L;
                case "ms" -> 1_000_000L;
                case "s" -> 1_000_000_000L;
                case "m" -> 60_000_000_000L;
                case "h" -> 3_600_000_000_000L;
                default -> throw new Bad(what);
            };
            ns = ns.add(n.multiply(BigDecimal.valueOf(scale)));
        }
        BigDecimal[] ms = ns.divideAndRemainder(BigDecimal.valueOf(1_000_000));
        if (ms[1].signum() != 0 || ms[0].compareTo(BigDecimal.valueOf(Long.MAX_VALUE / 2)) > 0) {
            throw new Bad(what);
        }
        return ms[0].longValueExact();
    }
}
