package io.batchyard.cli.pipeline;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Pipeline files on disk: one YAML file per application ({@code <name>.yaml}), read from a directory (every
 * {@code .yaml} and {@code .yml} file, by name) or one file, each checked by {@link PipelineRules} before anything
 * is planned.
 */
public final class PipelineFiles {

    /** Unquoted where YAML allows it; a string that would read back as a number is quoted, so it stays a string. */
    static final ObjectMapper YAML = new ObjectMapper(YAMLFactory.builder()
            .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
            .enable(YAMLGenerator.Feature.MINIMIZE_QUOTES)
            .enable(YAMLGenerator.Feature.ALWAYS_QUOTE_NUMBERS_AS_STRINGS)
            .enable(YAMLGenerator.Feature.INDENT_ARRAYS_WITH_INDICATOR)
            .build()).disable(SerializationFeature.FAIL_ON_EMPTY_BEANS);

    /** A file read and checked. */
    public record Loaded(Path file, Pipeline pipeline) {
    }

    private PipelineFiles() {
    }

    /**
     * The pipelines of {@code fileOrDirectory}, or every rule a file breaks, each as {@code file: path: reason}
     * ({@link PipelineRules.Invalid}).
     */
    public static List<Loaded> read(Path fileOrDirectory) {
        List<Path> files;
        if (Files.isDirectory(fileOrDirectory)) {
            try (Stream<Path> list = Files.list(fileOrDirectory)) {
                files = list.filter(p -> p.toString().endsWith(".yaml") || p.toString().endsWith(".yml")).sorted()
                        .toList();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            if (files.isEmpty()) {
                throw new IllegalArgumentException("no .yaml or .yml pipeline file in " + fileOrDirectory);
            }
        } else if (Files.isRegularFile(fileOrDirectory)) {
            files = List.of(fileOrDirectory);
        } else {
            throw new IllegalArgumentException(fileOrDirectory + " is neither a file nor a directory");
        }
        List<Loaded> loaded = new ArrayList<>();
        List<String> errors = new ArrayList<>();
        for (Path file : files) {
            JsonNode tree;
            try {
                tree = YAML.readTree(file.toFile());
            } catch (IOException e) {
                errors.add(file + ": not YAML: " + e.getMessage().lines().findFirst().orElse(""));
                continue;
            }
            List<String> broken = PipelineRules.check(tree);
            if (!broken.isEmpty()) {
                broken.forEach(b -> errors.add(file + ": " + b));
                continue;
            }
            loaded.add(new Loaded(file, PipelineRules.toPipeline(tree).sorted()));
        }
        List<String> names = loaded.stream().map(l -> l.pipeline().application().name()).toList();
        names.stream().filter(n -> names.indexOf(n) != names.lastIndexOf(n)).distinct()
                .forEach(n -> errors.add("application '" + n + "' is in more than one file"));
        if (!errors.isEmpty()) {
            throw new PipelineRules.Invalid(errors);
        }
        return loaded;
    }

    /** The file's text: the same pipeline gives the same bytes. */
    public static String text(Pipeline pipeline) {
        try {
            return "# Batchyard pipeline file (client/cli/src/main/resources/pipeline.schema.json); "
                    + "batchyard plan/apply -f\n" + YAML.writeValueAsString(pipeline.sorted());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Writes {@code <directory>/<application name>.yaml} and answers the path. */
    public static Path write(Path directory, Pipeline pipeline) {
        try {
            Files.createDirectories(directory);
            Path file = directory.resolve(fileName(pipeline.application().name()));
            Files.writeString(file, text(pipeline), StandardCharsets.UTF_8);
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The application's name as a file name: characters other than letters, digits, '.', '_' and '-' become '_'. */
    static String fileName(String application) {
        return application.replaceAll("[^A-Za-z0-9._-]", "_") + ".yaml";
    }
}
