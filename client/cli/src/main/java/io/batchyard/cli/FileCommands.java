package io.batchyard.cli;

import io.batchyard.client.BatchyardClient;
import io.batchyard.client.FileToRegister;
import io.batchyard.client.RegisteredFile;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** RegisterFile on queue-service. */
@Command(name = "register-file", mixinStandardHelpOptions = true,
        description = "RegisterFile: record a file a step wrote under a batch (a new batch without --batch-id).")
class RegisterFileCommand extends Call {

    @Option(names = "--sub-process-id", required = true, paramLabel = "ID", description = "the step that wrote it")
    long subProcessId;

    @Option(names = "--server-id", required = true, paramLabel = "ID", description = "the server it is on")
    long serverId;

    @Option(names = "--path", required = true, paramLabel = "PATH", description = "where it is")
    String path;

    @Option(names = "--file-size", required = true, paramLabel = "BYTES", description = "its size")
    long fileSize;

    @Option(names = "--file-hash", paramLabel = "HASH", description = "its hash")
    String fileHash;

    @Option(names = "--creation-timestamp", paramLabel = "TS",
            description = "when it was written, ISO-8601 with an offset (e.g. 2024-05-01T10:00:00Z)")
    String creationTs;

    @Option(names = "--batch-id", paramLabel = "ID", description = "the batch to add it to (default: a new batch)")
    Long batchId;

    @Override
    int run(BatchyardClient client, Output out) {
        RegisteredFile f = client.registerFile(new FileToRegister(subProcessId, serverId, path, fileSize, fileHash,
                creationTs, batchId));
        out.json(f);
        out.line("file " + f.path() + " registered in batch " + f.batchId());
        return ExitCodes.OK;
    }
}
