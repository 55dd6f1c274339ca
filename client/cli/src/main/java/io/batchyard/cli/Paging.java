package io.batchyard.cli;

import picocli.CommandLine.Option;

/** A page of a list: the services' {@code limit} and {@code offset}. */
class Paging {

    @Option(names = "--limit", paramLabel = "N", defaultValue = "20", description = "at most N (default ${DEFAULT-VALUE})")
    int limit;

    @Option(names = "--offset", paramLabel = "N", defaultValue = "0", description = "skip N (default ${DEFAULT-VALUE})")
    int offset;
}
