package io.batchyard.cli;

import io.batchyard.client.BatchyardClient;
import io.batchyard.client.LogEntry;
import java.util.List;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** The process log: a key/value log per process that jobs write (e.g. the last id an incremental import read). */
@Command(name = "process-log", mixinStandardHelpOptions = true,
        description = "Add to and read a process's log (values under a category and a message id).",
        subcommands = {ProcessLogCommands.Add.class, ProcessLogCommands.ListEntries.class,
                ProcessLogCommands.LastValue.class})
class ProcessLogCommands {

    @Command(name = "add", mixinStandardHelpOptions = true, description = "AddProcessLog: record a value.")
    static class Add extends Call {
        @Parameters(paramLabel = "PROCESS_ID", description = "the process (parent or step)")
        long processId;

        @Option(names = "--category", required = true, paramLabel = "C", description = "the category")
        String category;

        @Option(names = "--message-id", required = true, paramLabel = "KEY", description = "the key")
        String messageId;

        @Option(names = "--message", required = true, paramLabel = "VALUE", description = "the value")
        String message;

        @Option(names = "--instance-ref", paramLabel = "RUN", description = "the run it belongs to (its instance exec id)")
        Long instanceRef;

        @Override
        int run(BatchyardClient client, Output out) {
            LogEntry e = client.addProcessLog(processId, LogEntry.of(category, messageId, message, instanceRef));
            out.json(e);
            out.line("log entry " + e.logId() + ": " + e.category() + "/" + e.messageId() + " = " + e.message());
            return ExitCodes.OK;
        }
    }

    @Command(name = "list", mixinStandardHelpOptions = true, description = "The process's entries, newest first.")
    static class ListEntries extends Call {
        @Parameters(paramLabel = "PROCESS_ID", description = "the process")
        long processId;

        @Option(names = "--category", paramLabel = "C", description = "only this category")
        String category;

        @Option(names = "--message-id", paramLabel = "KEY", description = "only this key")
        String messageId;

        @Option(names = "--limit", paramLabel = "N", defaultValue = "20", description = "at most N (default ${DEFAULT-VALUE})")
        int limit;

        @Override
        int run(BatchyardClient client, Output out) {
            List<LogEntry> entries = client.readProcessLog(processId, category, messageId, limit);
            out.json(entries);
            out.line(Table.of("LOG_ID", "ADDED", "CATEGORY", "MESSAGE_ID", "MESSAGE", "INSTANCE_REF")
                    .rows(entries.stream().map(e -> new Object[] {e.logId(), e.addTs(), e.category(), e.messageId(),
                            e.message(), e.instanceRef()}).toList())
                    .render());
            return ExitCodes.OK;
        }
    }

    @Command(name = "last-value", mixinStandardHelpOptions = true,
            description = "getLastValue: print the newest value of a key in a category; exit 5 when there is none.")
    static class LastValue extends Call {
        @Parameters(paramLabel = "PROCESS_ID", description = "the process")
        long processId;

        @Option(names = "--category", required = true, paramLabel = "C", description = "the category")
        String category;

        @Option(names = "--message-id", required = true, paramLabel = "KEY", description = "the key")
        String messageId;

        @Override
        int run(BatchyardClient client, Output out) {
            Optional<LogEntry> last = client.lastProcessLogValue(processId, messageId, category);
            if (last.isEmpty()) {
                out.json(null);
                return ExitCodes.NOT_FOUND;
            }
            out.json(last.get());
            out.line(last.get().message());
            return ExitCodes.OK;
        }
    }
}
