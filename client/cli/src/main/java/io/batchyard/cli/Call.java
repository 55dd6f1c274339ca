package io.batchyard.cli;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.batchyard.client.BatchyardClient;
import io.batchyard.client.ProblemException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.util.concurrent.Callable;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * A command that makes one or more calls through the client library: builds the client from {@link Connection},
 * runs, prints the answer (human text, or JSON with {@code --json}) and turns a failure into the exit status of
 * {@link ExitCodes} with the reason on stderr.
 */
abstract class Call implements Callable<Integer> {

    static final ObjectMapper JSON = new ObjectMapper().setSerializationInclusion(JsonInclude.Include.ALWAYS);

    @Mixin
    Connection connection;

    @Spec
    CommandSpec spec;

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
            return run(client, new Output(spec.commandLine().getOut(), connection.json));
        } catch (ProblemException e) {
            int status = ExitCodes.of(e);
            if (connection.json) {
                ObjectNode p = JSON.createObjectNode();
                p.put("status", e.status());
                p.putPOJO("code", e.code());
                p.put("title", e.title());
                p.put("detail", e.detail());
                p.put("exit", status);
                err.println(p);
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

    /** Where a command prints: {@link #json} for {@code --json}, {@link #line} for people (dropped with --json). */
    static final class Output {
        private final PrintWriter out;
        private final boolean json;

        Output(PrintWriter out, boolean json) {
            this.out = out;
            this.json = json;
        }

        boolean json() {
            return json;
        }

        /** With --json: the value as one line of JSON. */
        void json(Object value) {
            if (json) {
                try {
                    out.println(JSON.writeValueAsString(value));
                } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
                    throw new IllegalStateException(e);
                }
                out.flush();
            }
        }

        /** Without --json: a line for people. */
        void line(String text) {
            if (!json) {
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
