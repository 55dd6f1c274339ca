package io.batchyard.cli;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.batchyard.client.BatchyardClient;
import io.batchyard.client.ProblemException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * A command that makes one or more calls through the client library: builds the client from {@link Connection},
 * runs, prints the answer (for people, or JSON or YAML with {@code --output}) and turns a failure into the exit
 * status of {@link ExitCodes} with the reason on stderr.
 */
abstract class Call implements Callable<Integer> {

    /** Compact JSON for what commands read and write themselves (files, saved plans); answers go through Output. */
    static final ObjectMapper JSON = new ObjectMapper().setSerializationInclusion(JsonInclude.Include.ALWAYS);

    @Mixin
    Connection connection;

    @Spec
    CommandSpec spec;

    /**
     * A refusal for scripts: the problem+json fields the service sent (its numeric code as {@code code}) and the exit
     * status this command ends with.
     */
    static Map<String, Object> problem(ProblemException e, int exit) {
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("status", e.status());
        p.put("code", e.code());
        p.put("title", e.title());
        p.put("detail", e.detail());
        p.put("exit", exit);
        return p;
    }

    /** Makes the call and prints its answer; answers the exit status (0 unless the command has its own reason). */
    abstract int run(BatchyardClient client, Output out) throws Exception;

    @Override
    public Integer call() {
        PrintWriter err = spec.commandLine().getErr();
        String name = spec.qualifiedName(" ");
        BatchyardClient client;
        try {
            client = new BatchyardClient(connection.settings());
        } catch (IllegalArgumentException | IllegalStateException | UncheckedIOException e) {
            err.println(name + ": " + e.getMessage());
            err.flush();
            return ExitCodes.USAGE;
        }
        try {
            return run(client, new Output(spec.commandLine().getOut(), connection.format()));
        } catch (ProblemException e) {
            int status = ExitCodes.of(e);
            Output.Format format = connection.format();
            if (format != Output.Format.table) {
                err.print(format.write(problem(e, status)));
            } else {
                err.println(name + (status == ExitCodes.UNAVAILABLE ? ": Batchyard unavailable: "
                        : ": Batchyard refused: ") + e.getMessage() + " (exit " + status + ")");
            }
            err.flush();
            return status;
        } catch (IllegalArgumentException e) {
            err.println(name + ": " + e.getMessage());
            err.flush();
            return ExitCodes.USAGE;
        } catch (Exception e) {
            err.println(name + " failed: " + e);
            err.flush();
            return ExitCodes.UNAVAILABLE;
        }
    }

    /**
     * Where a command prints, in the format of {@code --output}: {@link #json(Object)} is the answer for scripts
     * (JSON or YAML), {@link #line} the text for people ({@code table}, the default); each is dropped in the other formats, so a
     * command calls both and prints one.
     */
    static final class Output {

        /** The formats of {@code --output}. */
        enum Format {
            table, json, yaml;

            /** A value as this format's document (json or yaml), ending with a line break. */
            String write(Object value) {
                try {
                    return switch (this) {
                        case json -> PRETTY_JSON.writeValueAsString(value) + "\n";
                        case yaml -> YAML.writeValueAsString(value);
                        case table -> throw new IllegalStateException("a table is drawn by its command");
                    };
                } catch (JsonProcessingException e) {
                    throw new IllegalStateException(e);
                }
            }
        }

        /**
         * Pretty JSON in a stable order: the service's fields as it sent them, a record's in declaration order, a map's
         * keys sorted (a Map.of has no order of its own); nulls are kept, a script may test for them.
         */
        static final ObjectMapper PRETTY_JSON = new ObjectMapper().setSerializationInclusion(JsonInclude.Include.ALWAYS)
                .enable(SerializationFeature.INDENT_OUTPUT).enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS);

        /** The same tree as YAML, one document without the leading {@code ---}. */
        static final ObjectMapper YAML = YAMLMapper.builder().disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
                .serializationInclusion(JsonInclude.Include.ALWAYS)
                .enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS).build();

        private final PrintWriter out;
        private final Format format;

        Output(PrintWriter out, Format format) {
            this.out = out;
            this.format = format;
        }

        Format format() {
            return format;
        }

        /** Whether the answer is printed for scripts (JSON or YAML) rather than for people. */
        boolean json() {
            return format != Format.table;
        }

        /** For scripts (--output json or yaml): the value as one document. */
        void json(Object value) {
            if (json()) {
                out.print(format.write(value));
                out.flush();
            }
        }

        /** For people (--output table, the default): a line. */
        void line(String text) {
            if (!json()) {
                out.println(text);
                out.flush();
            }
        }

        /** Always (a workflow file, a bare value). */
        void raw(String text) {
            out.print(text);
            out.flush();
        }
    }
}
