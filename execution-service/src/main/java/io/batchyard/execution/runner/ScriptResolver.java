package io.batchyard.execution.runner;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Where a script name points (spec B.3.10): an absolute path that exists, else {@code <script-dir>/<name>}. PWM's
 * third source, a plugin resolver, is the script directory itself here: put a wrapper there.
 */
public final class ScriptResolver {

    private final Path scriptDir;

    @Override
    public String toString() {
        return scriptDir.toString();
    }

    public ScriptResolver(Path scriptDir) {
        this.scriptDir = scriptDir;
    }

    public Optional<Path> resolve(String name) {
        if (name == null || name.isBlank()) {
            return Optional.empty();
        }
        Path asGiven = Path.of(name.trim());
        if (asGiven.isAbsolute()) {
            return Files.isRegularFile(asGiven) ? Optional.of(asGiven) : Optional.empty();
        }
        Path inDir = scriptDir.resolve(asGiven).normalize();
        // "../../etc/x" must not escape the script directory.
        if (!inDir.startsWith(scriptDir.normalize())) {
            return Optional.empty();
        }
        return Files.isRegularFile(inDir) ? Optional.of(inDir) : Optional.empty();
    }
}
