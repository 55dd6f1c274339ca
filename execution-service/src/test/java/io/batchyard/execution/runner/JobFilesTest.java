package io.batchyard.execution.runner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.batchyard.execution.ExecutionError;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Where a file a job definition names may be read from: only from inside the work directory, on real paths. */
class JobFilesTest {

    @TempDir
    Path root;

    private Path work() throws IOException {
        Path dir = Files.createDirectories(root.resolve("work"));
        Files.createDirectories(dir.resolve("ctx"));
        Files.writeString(dir.resolve("ctx/options.txt"), "--env prod\n");
        Files.writeString(root.resolve("secret.txt"), "root:x:0:0\n");
        return dir;
    }

    private static void refused(JobFiles files, String name, ExecutionError error, String why) {
        assertThatThrownBy(() -> files.read(name)).isInstanceOfSatisfying(ScriptResolver.Refused.class,
                e -> assertThat(e.error()).isEqualTo(error)).hasMessageStartingWith("problem " + error.code() + " ")
                .hasMessageContaining(why).hasMessageNotContaining("root:x");
    }

    @Test
    void aRelativePathInsideTheWorkDirectoryIsRead() throws IOException {
        JobFiles files = new JobFiles(work());
        assertThat(files.read("ctx/options.txt")).isEqualTo("--env prod\n");
        assertThat(files.read("./ctx/options.txt")).isEqualTo("--env prod\n");
    }

    @Test
    void absolutePathsDotDotSegmentsAndControlCharactersAreRefusedByTheirShape() throws IOException {
        JobFiles files = new JobFiles(work());
        refused(files, "/etc/passwd", ExecutionError.FILE_NAME_REFUSED, "absolute path");
        refused(files, "/proc/self/environ", ExecutionError.FILE_NAME_REFUSED, "absolute path");
        refused(files, "../../../../../../../../etc/passwd", ExecutionError.FILE_NAME_REFUSED, "'..'");
        refused(files, "ctx/../../secret.txt", ExecutionError.FILE_NAME_REFUSED, "'..'");
        refused(files, "ctx/options.txt\n", ExecutionError.FILE_NAME_REFUSED, "control character");
        refused(files, " ", ExecutionError.FILE_NAME_REFUSED, "empty");
        assertThat(JobFiles.whyRefused("ctx/options.txt")).isEmpty();
    }

    @Test
    void aSymlinkLeadingOutOfTheWorkDirectoryIsRefusedOneStayingInsideIsFollowed() throws IOException {
        Path dir = work();
        Files.createSymbolicLink(dir.resolve("innocent.txt"), root.resolve("secret.txt"));
        Files.createSymbolicLink(dir.resolve("passwd"), Path.of("/etc/passwd"));
        Files.createSymbolicLink(dir.resolve("up"), root);
        Files.createSymbolicLink(dir.resolve("current.txt"), dir.resolve("ctx/options.txt"));
        JobFiles files = new JobFiles(dir);
        refused(files, "innocent.txt", ExecutionError.FILE_OUTSIDE_DIRECTORY, "outside the runner's work directory");
        refused(files, "passwd", ExecutionError.FILE_OUTSIDE_DIRECTORY, "outside the runner's work directory");
        refused(files, "up/secret.txt", ExecutionError.FILE_OUTSIDE_DIRECTORY, "outside the runner's work directory");
        assertThat(files.read("current.txt")).isEqualTo("--env prod\n");
    }

    @Test
    void onlyARegularFileOfBoundedSizeIsRead() throws IOException {
        Path dir = work();
        Files.writeString(dir.resolve("big.txt"), "x".repeat(JobFiles.MAX_BYTES + 1));
        JobFiles files = new JobFiles(dir);
        assertThatThrownBy(() -> files.read("ctx")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not a regular file");
        assertThatThrownBy(() -> files.read("absent.txt")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not a regular file");
        assertThatThrownBy(() -> files.read("big.txt")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("more than " + JobFiles.MAX_BYTES + " bytes");
    }
}
