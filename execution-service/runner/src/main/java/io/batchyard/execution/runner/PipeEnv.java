package io.batchyard.execution.runner;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The PWM environment contract: PIPEJOBID, PIPEJOBSCRIPT, and the previous script's output as PIPEINOUT / PIPEERROR,
 * or, when the output exceeds the threshold, in the file PIPEFILE names (PIPEINOUT empty).
 */
public final class PipeEnv {

    /** What the previous script in the chain printed. */
    public record Previous(String stdout, String stderr) {
        public static final Previous NONE = new Previous("", "");
    }

    private PipeEnv() {
    }

    public static Map<String, String> of(long jobId, String script, Previous previous, int threshold, Path spillDir) {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("PIPEJOBID", Long.toString(jobId));
        env.put("PIPEJOBSCRIPT", script);
        String in = previous.stdout();
        if (in.length() > threshold) {
            try {
                Files.createDirectories(spillDir);
                Path file = Files.createTempFile(spillDir, "pipeinout-" + jobId + "-", ".txt");
                Files.writeString(file, in, StandardCharsets.UTF_8);
                env.put("PIPEFILE", file.toString());
                env.put("PIPEINOUT", "");
            } catch (IOException e) {
                throw new UncheckedIOException("cannot spill PIPEINOUT to " + spillDir, e);
            }
        } else {
            env.put("PIPEINOUT", in);
            env.put("PIPEFILE", "");
        }
        // An environment variable cannot be arbitrarily large (Linux: 128 KiB each); the tail has the error.
        String err = previous.stderr();
        env.put("PIPEERROR", err.length() > threshold ? err.substring(err.length() - threshold) : err);
        return env;
    }
}
