package io.labtui.anchor;

import java.util.Map;

/**
 * The course's PRICE_PER_1K, USD per 1000 tokens (input, output): the same table as the lab's
 * job (gateway_meter.py) and gateway.DefaultPrices in Go.
 */
final class Prices {
    private static final Map<String, double[]> PER_1K = Map.of(
            "nova-large", new double[] {0.0030, 0.0150},
            "nova-small", new double[] {0.00015, 0.0006},
            "orca-70b", new double[] {0.0009, 0.0009},
            "flat-10c", new double[] {0.05, 0.05});

    private Prices() {}

    /** Whether the model has a price. */
    static boolean priced(String model) {
        return PER_1K.containsKey(model);
    }

    /**
     * What one request costs: prompt / 1000 * in + completion / 1000 * out, evaluated in
     * this order, each operation rounded to a double as Python rounds it (Java never fuses a
     * multiply and an add), so the sums equal the Python job's and labtui's bit for bit.
     */
    static double usd(RequestRecord r) {
        double[] p = PER_1K.get(r.model);
        return (double) r.promptTokens / 1000 * p[0] + (double) r.completionTokens / 1000 * p[1];
    }
}
