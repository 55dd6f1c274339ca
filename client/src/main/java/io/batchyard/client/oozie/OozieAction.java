package io.batchyard.client.oozie;

import io.batchyard.client.BatchyardClient;
import io.batchyard.client.ProblemException;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;

/**
 * What every Oozie action main shares: parse the arguments, make the call, write the answer where Oozie's
 * {@code <capture-output/>} reads it (the file named by system property {@value #OUTPUT_PROPERTY}) and end with an exit
 * status Oozie turns into the action's ok or error transition.
 */
public final class OozieAction {

    public static final String OUTPUT_PROPERTY = "oozie.action.output.properties";
    /** Exit status of a call Batchyard refused (the problem's code and text are printed to stderr). */
    public static final int REFUSED = 1;
    /** Exit status of arguments or settings the main cannot use. */
    public static final int USAGE = 2;
    /** Exit status when Batchyard could not be reached or answered unexpectedly. */
    public static final int FAILED = 3;

    /** One lifecycle call: the keys to hand to later nodes (empty when none). */
    @FunctionalInterface
    interface Call {
        Map<String, String> run(Args args, BatchyardClient client);
    }

    private OozieAction() {
    }

    /** For {@code main}: runs the call and exits non-zero when it failed, so the workflow takes the error transition. */
    static void main(String action, String[] argv, Call call) {
        int status = run(action, argv, call, System.err);
        if (status != 0) {
            System.exit(status);
        }
    }

    /** Runs the call with the client from the environment; 0, {@link #REFUSED}, {@link #USAGE} or {@link #FAILED}. */
    static int run(String action, String[] argv, Call call, PrintStream err) {
        Map<String, String> out;
        try {
            Args args = Args.parse(argv);
            out = call.run(args, BatchyardClient.fromEnvironment());
        } catch (ProblemException e) {
            err.println("Batchyard refused " + action + ": " + e.getMessage());
            return e.code() == null ? FAILED : REFUSED;
        } catch (IllegalArgumentException | IllegalStateException e) {
            err.println(action + ": " + e.getMessage());
            return USAGE;
        } catch (RuntimeException e) {
            err.println(action + " failed: " + e);
            return FAILED;
        }
        try {
            writeOutput(out);
        } catch (UncheckedIOException e) {
            err.println(action + ": cannot write the action output: " + e.getMessage());
            return FAILED;
        }
        return 0;
    }

    /** Writes {@code out} to the capture-output file when Oozie named one (outside Oozie there is none: nothing). */
    static void writeOutput(Map<String, String> out) {
        String file = System.getProperty(OUTPUT_PROPERTY);
        if (file == null || file.isBlank()) {
            return;
        }
        Properties p = new Properties();
        out.forEach((k, v) -> p.setProperty(k, v == null ? "" : v));
        try (OutputStream o = Files.newOutputStream(Path.of(file))) {
            p.store(o, "Batchyard");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
