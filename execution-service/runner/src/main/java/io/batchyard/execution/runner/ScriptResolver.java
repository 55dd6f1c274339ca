package io.batchyard.execution.runner;

import io.batchyard.api.ScriptNames;
import io.batchyard.execution.ExecutionError;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Where a script name points: {@code <script-dir>/<name>}, and nowhere else. The name must be a plain name or a
 * relative path without '..' segments, and the real path of the file (every symlink followed) must lie inside the
 * real path of the directory, checked each time a script is about to run. PWM's third source, a plugin resolver, is
 * the script directory itself here: put a wrapper there.
 */
public final class ScriptResolver {

    /** A script the runner will not run, with the problem code that says why. */
    public static final class Refused extends IllegalArgumentException {
        private final transient ExecutionError error;

        Refused(ExecutionError error, String detail) {
            super("problem " + error.code() + " (" + error.title() + "): " + detail);
            this.error = error;
        }

        public ExecutionError error() {
            return error;
        }
    }

    private final Path scriptDir;

    public ScriptResolver(Path scriptDir) {
        this.scriptDir = scriptDir.toAbsolutePath().normalize();
    }

    @Override
    public String toString() {
        return scriptDir.toString();
    }

    /**
     * The real path of the script {@code name} names, or empty when no such regular file exists in the directory.
     *
     * @throws Refused when the name is not one inside the directory, or its real path leaves it
     */
    public Optional<Path> resolve(String name) {
        ScriptNames.whyRefused(name).ifPresent(why -> {
            throw new Refused(ExecutionError.SCRIPT_NAME_REFUSED, why);
        });
        return inside(scriptDir, name.strip(), "script directory", ExecutionError.SCRIPT_OUTSIDE_DIRECTORY);
    }

    /**
     * The real path of the regular file {@code name} (a relative path already judged well formed) names in
     * {@code dir}, or empty when there is none.
     *
     * @throws Refused with {@code outside} when the real path of the file (every symlink followed) is not inside the
     *                 real path of {@code dir}, called {@code what} in the refusal
     */
    static Optional<Path> inside(Path dir, String name, String what, ExecutionError outside) {
        Path realDir;
        try {
            realDir = dir.toRealPath();
        } catch (IOException e) {
            return Optional.empty();
        }
        Path candidate = realDir.resolve(name);
        if (!Files.exists(candidate)) {
            return Optional.empty();
        }
        Path real;
        try {
            real = candidate.toRealPath();
        } catch (IOException e) {
            return Optional.empty();
        }
        if (!real.startsWith(realDir)) {
            throw new Refused(outside, "'" + name + "' leads to " + real + ", outside the " + what + " " + realDir);
        }
        return Files.isRegularFile(real) ? Optional.of(real) : Optional.empty();
    }
}
