package org.apache.flink.streaming.api.runners.python.beam;

import java.util.ArrayList;
import java.util.List;
import org.apache.beam.model.pipeline.v1.RunnerApi;
import org.apache.beam.runners.fnexecution.control.JobBundleFactory;
import org.apache.flink.python.env.PythonEnvironmentManager;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/*
 * labtui builds this class and puts it in place of flink-python 2.2.1's own in its copy of
 * that jar (this folder's pythonjar.go: localcluster builds the copy for the cluster
 * backends, the Flink image for the compose lab). It holds what the Python operators of one slot
 * share, their JobBundleFactory and the Python environments, and closes them when the last
 * operator lets go. flink-python's version lets a cancellation take the TaskManager down:
 *
 * An operator finishes its bundles on a thread of its own. When its task is cancelled, the
 * task thread stops waiting for that thread and closes the operator, whose last lease
 * closes the JobBundleFactory while a bundle may still be finishing. Beam's
 * DefaultJobBundleFactory.close then releases the client's references ("Expiring
 * environment ... with 1 remaining bundle references") while the finishing bundle releases
 * its own: the client is closed once, at zero, and close's next release goes below zero,
 * so it throws IllegalStateException("Reference count must not be negative.") after it has
 * closed everything else. Flink's Task treats any exception while cleaning up a cancelled
 * task as fatal ("FATAL - exception in exception handler") and shuts the TaskManager down.
 *
 * This one logs that exception instead of throwing it, when it is the only failure, since
 * by then nothing is left open; any other failure is thrown, as before. It also closes the
 * Python environments when the factory's close fails, which flink-python's skips.
 */
public final class PythonSharedResources implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(PythonSharedResources.class);

    /** Beam's message when a client's references are released more times than taken. */
    static final String RELEASED_TWICE = "Reference count must not be negative.";

    private final JobBundleFactory jobBundleFactory;
    private final RunnerApi.Environment environment;
    private final List<PythonEnvironmentManager> environmentManagers = new ArrayList<>();

    PythonSharedResources(JobBundleFactory jobBundleFactory, RunnerApi.Environment environment) {
        this.jobBundleFactory = jobBundleFactory;
        this.environment = environment;
    }

    JobBundleFactory getJobBundleFactory() {
        return jobBundleFactory;
    }

    RunnerApi.Environment getEnvironment() {
        return environment;
    }

    synchronized void addPythonEnvironmentManager(PythonEnvironmentManager manager) {
        environmentManagers.add(manager);
    }

    @Override
    public void close() throws Exception {
        Exception failure = null;
        try {
            jobBundleFactory.close();
        } catch (Exception e) {
            if (releasedTwice(e)) {
                LOG.warn("A bundle finishing while its task was cancelled released the Python"
                        + " worker's client once more than it was held; everything was closed,"
                        + " so the task's clean-up goes on (labtui's flink-python fix).", e);
            } else {
                failure = e;
            }
        }
        for (PythonEnvironmentManager manager : environmentManagers) {
            try {
                manager.close();
            } catch (Exception e) {
                if (failure == null) {
                    failure = e;
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
    }

    /** Reports whether e is Beam's double release alone, with nothing suppressed in it. */
    static boolean releasedTwice(Exception e) {
        return e instanceof IllegalStateException
                && RELEASED_TWICE.equals(e.getMessage())
                && e.getSuppressed().length == 0;
    }
}
