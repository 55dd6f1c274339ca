package io.batchyard.execution.runner;

import io.batchyard.execution.ExecutionError;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Files a job definition names for the runner to read (a run policy's {@code context.file}), confined as scripts
 * are: the name is a relative path inside the runner's work directory, without '..' segments or control characters
 * (433 otherwise), and the real path of the file (every symlink followed) lies inside the real work directory (434
 * otherwise). The shape is judged when the policy is written, everything again each time the file is read, and the
 * file read is the real path that was checked, so a link changed in between leads nowhere else. Its words become a
 * command's arguments, so it is a regular file of at most {@link #MAX_BYTES}.
 */
public final class JobFiles {

    /** The most a context file may hold: its words go on a command line, which the system bounds too. */
    public static final int MAX_BYTES = 64 * 1024;

    private final Path workDir;

    public JobFiles(Path workDir) {
        this.workDir = workDir.toAbsolutePath().normalize();
    }

    /** Why {@code name} cannot name a file inside the work directory, or empty when its shape is acceptable. */
    public static Optional<String> whyRefused(String name) {
        if (name == null || name.isBlank()) {
            return Optional.of("the file name is empty");
        }
        for (int i = 0; i < name.length(); i++) {
            if (Character.isISOControl(name.charAt(i))) {
                return Optional.of("the file name contains a control character (code " + (int) name.charAt(i) + ")");
            }
        }
        String path = name.strip();
        if (path.startsWith("/")) {
            return Optional.of("'" + path + "' is an absolute path; name a file inside the runner's work directory");
        }
        for (String segment : path.split("/")) {
            if (segment.equals("..")) {
                return Optional.of("'" + path + "' has a '..' segment; name a file inside the runner's work directory");
            }
        }
        return Optional.empty();
    }

    /**
     * Refuses a name the runner would never read; a well-formed name of a file that is absent is left to fail when
     * it is read.
     *
     * @throws ScriptResolver.Refused with the problem code
     */
    public void check(String name) {
        resolve(name);
    }

    /**
     * The text of the file {@code name} names.
     *
     * @throws ScriptResolver.Refused when the name or the file's real path is not one inside the work directory
     * @throws IllegalArgumentException when there is no such regular file, it is too large or cannot be read
     */
    public String read(String name) {
        Path real = resolve(name).orElseThrow(() -> new IllegalArgumentException("context file " + name.strip()
                + " is not a regular file in the runner's work directory " + workDir));
        try (InputStream in = Files.newInputStream(real, LinkOption.NOFOLLOW_LINKS)) {
            byte[] text = in.readNBytes(MAX_BYTES + 1);
            if (text.length > MAX_BYTES) {
                throw new IllegalArgumentException("context file " + name.strip() + " holds more than " + MAX_BYTES
                        + " bytes");
            }
            return new String(text, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalArgumentException("context file " + name.strip() + " cannot be read: " + e.getMessage());
        }
    }

    private Optional<Path> resolve(String name) {
        whyRefused(name).ifPresent(why -> {
            throw new ScriptResolver.Refused(ExecutionError.FILE_NAME_REFUSED, why);
        });
        return ScriptResolver.inside(workDir, name.strip(), "runner's work directory",
                ExecutionError.FILE_OUTSIDE_DIRECTORY);
    }

    @Override
    public String toString() {
        return workDir.toString();
    }
}
