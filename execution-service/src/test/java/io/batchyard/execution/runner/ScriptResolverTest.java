package io.batchyard.execution.runner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.batchyard.execution.ExecutionError;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Where a script may come from: only from inside the script directory, judged on real paths. */
class ScriptResolverTest {

    @TempDir
    Path root;

    private Path scripts() throws IOException {
        Path dir = Files.createDirectories(root.resolve("scripts"));
        Files.writeString(dir.resolve("load.sh"), "#!/bin/sh\n");
        Files.createDirectories(dir.resolve("etl"));
        Files.writeString(dir.resolve("etl/clean.sh"), "#!/bin/sh\n");
        Files.writeString(root.resolve("outside.sh"), "#!/bin/sh\n");
        return dir;
    }

    @Test
    void plainNamesAndRelativePathsResolveToTheirRealPathInsideTheDirectory() throws IOException {
        Path dir = scripts();
        ScriptResolver resolver = new ScriptResolver(dir);
        assertThat(resolver.resolve("load.sh")).contains(dir.toRealPath().resolve("load.sh"));
        assertThat(resolver.resolve("etl/clean.sh")).contains(dir.toRealPath().resolve("etl/clean.sh"));
        assertThat(resolver.resolve("./etl/clean.sh")).contains(dir.toRealPath().resolve("etl/clean.sh"));
    }

    @Test
    void absentNamesAndDirectoriesDoNotResolve() throws IOException {
        ScriptResolver resolver = new ScriptResolver(scripts());
        assertThat(resolver.resolve("missing.sh")).isEmpty();
        assertThat(resolver.resolve("etl")).isEmpty();
        assertThat(new ScriptResolver(root.resolve("no-such-dir")).resolve("load.sh")).isEmpty();
    }

    @Test
    void absolutePathsAreRefusedEvenWhenTheyPointIntoTheDirectory() throws IOException {
        Path dir = scripts();
        ScriptResolver resolver = new ScriptResolver(dir);
        assertRefused(() -> resolver.resolve(root.resolve("outside.sh").toString()), ExecutionError.SCRIPT_NAME_REFUSED);
        assertRefused(() -> resolver.resolve(dir.resolve("load.sh").toString()), ExecutionError.SCRIPT_NAME_REFUSED);
    }

    @Test
    void anyDotDotSegmentIsRefusedEvenOneThatStaysInside() throws IOException {
        ScriptResolver resolver = new ScriptResolver(scripts());
        assertRefused(() -> resolver.resolve("../outside.sh"), ExecutionError.SCRIPT_NAME_REFUSED);
        assertRefused(() -> resolver.resolve("etl/../load.sh"), ExecutionError.SCRIPT_NAME_REFUSED);
        assertRefused(() -> resolver.resolve(".."), ExecutionError.SCRIPT_NAME_REFUSED);
    }

    @Test
    void emptyNamesAndControlCharactersAreRefused() throws IOException {
        ScriptResolver resolver = new ScriptResolver(scripts());
        assertRefused(() -> resolver.resolve(""), ExecutionError.SCRIPT_NAME_REFUSED);
        assertRefused(() -> resolver.resolve("  "), ExecutionError.SCRIPT_NAME_REFUSED);
        assertRefused(() -> resolver.resolve(null), ExecutionError.SCRIPT_NAME_REFUSED);
        assertRefused(() -> resolver.resolve("load.sh\u0000.txt"), ExecutionError.SCRIPT_NAME_REFUSED);
        assertRefused(() -> resolver.resolve("load\u001b.sh"), ExecutionError.SCRIPT_NAME_REFUSED);
    }

    @Test
    void aSymlinkWhoseRealPathLeavesTheDirectoryIsRefused() throws IOException {
        Path dir = scripts();
        Files.createSymbolicLink(dir.resolve("escape.sh"), root.resolve("outside.sh"));
        Files.createSymbolicLink(dir.resolve("up"), root);
        ScriptResolver resolver = new ScriptResolver(dir);
        assertRefused(() -> resolver.resolve("escape.sh"), ExecutionError.SCRIPT_OUTSIDE_DIRECTORY);
        assertRefused(() -> resolver.resolve("up/outside.sh"), ExecutionError.SCRIPT_OUTSIDE_DIRECTORY);
    }

    @Test
    void aSymlinkStayingInsideResolvesToItsTarget() throws IOException {
        Path dir = scripts();
        Files.createSymbolicLink(dir.resolve("current.sh"), dir.resolve("etl/clean.sh"));
        assertThat(new ScriptResolver(dir).resolve("current.sh")).contains(dir.toRealPath().resolve("etl/clean.sh"));
    }

    @Test
    void aSymlinkedScriptDirectoryIsJudgedByItsRealPath() throws IOException {
        Path dir = scripts();
        Path link = Files.createSymbolicLink(root.resolve("scripts-link"), dir);
        assertThat(new ScriptResolver(link).resolve("load.sh")).contains(dir.toRealPath().resolve("load.sh"));
    }

    @Test
    void jobsGetOnlyTheAllowedVariablesNeverTheServicesOwn() {
        Map<String, String> service = Map.of("PATH", "/opt/bin:/usr/bin", "HOME", "/home/svc", "LANG", "C.UTF-8",
                "QUARKUS_DATASOURCE_PASSWORD", "pw", "BATCHYARD_SECRETS_KEY", "k", "AWS_SECRET_ACCESS_KEY", "s");
        Map<String, String> env = OsCommand.jobEnvironment(service, Map.of("PIPEJOBID", "7", "BATCHYARD_BUCKET", "b1",
                "OTHER", "x"));
        assertThat(env).containsOnlyKeys("PATH", "HOME", "LANG", "PIPEJOBID", "BATCHYARD_BUCKET")
                .containsEntry("PATH", "/opt/bin:/usr/bin");
        assertThat(OsCommand.jobEnvironment(Map.of(), Map.of())).containsExactlyEntriesOf(Map.of("PATH",
                OsCommand.DEFAULT_PATH));
    }

    private static void assertRefused(org.assertj.core.api.ThrowableAssert.ThrowingCallable call, ExecutionError code) {
        assertThatThrownBy(call).isInstanceOfSatisfying(ScriptResolver.Refused.class, e -> {
            assertThat(e.error()).isEqualTo(code);
            assertThat(e.getMessage()).startsWith("problem " + code.code() + " ");
        });
    }
}
