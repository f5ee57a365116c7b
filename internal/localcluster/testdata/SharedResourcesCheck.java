package org.apache.flink.streaming.api.runners.python.beam;

import java.lang.reflect.Proxy;
import org.apache.beam.runners.fnexecution.control.JobBundleFactory;
import org.apache.flink.python.env.PythonEnvironmentManager;

/*
 * pythonjar_test.go runs this against flink-python's PythonSharedResources and against
 * labtui's. Each case closes a PythonSharedResources whose JobBundleFactory's close
 * throws what the case says (as Beam's DefaultJobBundleFactory does after closing
 * everything), with two Python environment managers, and prints one line:
 * "CASE returned|threw MESSAGE, N of 2 environments closed".
 */
public final class SharedResourcesCheck {
    public static void main(String[] args) {
        Exception twice = new IllegalStateException("Reference count must not be negative.");
        Exception twiceAndMore = new IllegalStateException("Reference count must not be negative.");
        twiceAndMore.addSuppressed(new RuntimeException("an environment failed to close"));
        check("released-twice", twice, false);
        check("released-twice-and-more", twiceAndMore, false);
        check("other-failure", new IllegalStateException("the control service failed"), false);
        check("environment-fails", null, true);
        check("clean", null, false);
    }

    private static void check(String name, Exception factoryFails, boolean firstEnvFails) {
        JobBundleFactory factory = (JobBundleFactory) Proxy.newProxyInstance(
                JobBundleFactory.class.getClassLoader(), new Class<?>[] {JobBundleFactory.class},
                (proxy, method, args) -> {
                    if (method.getName().equals("close") && factoryFails != null) {
                        throw factoryFails;
                    }
                    return null;
                });
        int[] closed = {0};
        PythonSharedResources resources = new PythonSharedResources(factory, null);
        for (int i = 0; i < 2; i++) {
            boolean fails = firstEnvFails && i == 0;
            resources.addPythonEnvironmentManager((PythonEnvironmentManager) Proxy.newProxyInstance(
                    PythonEnvironmentManager.class.getClassLoader(),
                    new Class<?>[] {PythonEnvironmentManager.class},
                    (proxy, method, args) -> {
                        if (method.getName().equals("close")) {
                            closed[0]++;
                            if (fails) {
                                throw new java.io.IOException("the environment's folder is gone");
                            }
                        }
                        return null;
                    }));
        }
        String outcome;
        try {
            resources.close();
            outcome = "returned";
        } catch (Exception e) {
            outcome = "threw " + e.getMessage();
        }
        System.out.println(name + " " + outcome + ", " + closed[0] + " of 2 environments closed");
    }
}
