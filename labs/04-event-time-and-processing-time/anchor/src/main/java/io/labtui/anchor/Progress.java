package io.labtui.anchor;

import java.util.concurrent.atomic.AtomicLong;

/**
 * What a run in this JVM has done so far, for the timings file mode prints: the job runs on a
 * MiniCluster in the same JVM, so its functions and main share these counters.
 */
final class Progress {
    private static final AtomicLong values = new AtomicLong();
    private static final AtomicLong requests = new AtomicLong();
    private static final AtomicLong results = new AtomicLong();
    private static volatile long firstNanos, lastNanos;

    private Progress() {}

    static void reset() {
        values.set(0);
        requests.set(0);
        results.set(0);
        firstNanos = 0;
        lastNanos = 0;
    }

    static void value() {
        if (values.getAndIncrement() == 0) {
            firstNanos = System.nanoTime();
        }
    }

    static void request() {
        requests.incrementAndGet();
    }

    static void result() {
        results.incrementAndGet();
        lastNanos = System.nanoTime();
    }

    static long values() {
        return values.get();
    }

    static long requests() {
        return requests.get();
    }

    static long results() {
        return results.get();
    }

    /** Nanoseconds from the first value read to the last result printed. */
    static long busyNanos() {
        return lastNanos > firstNanos ? lastNanos - firstNanos : 0;
    }
}
