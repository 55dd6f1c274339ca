package io.batchyard.lineage.openlineage;

import io.batchyard.lineage.registry.RegisteredServer;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The dataset namespace of a registered server by OpenLineage's naming conventions: {@code <scheme>://<host>:<port>}.
 * The scheme is the server's type in lower case, without the characters a URI scheme cannot hold ({@code Hive Server
 * 2} is {@code hiveserver2}), with the spellings of the conventions' schemes folded onto them: every Hive flavour is
 * {@code hive}, PostgreSQL {@code postgres}, SQL Server {@code sqlserver}, {@code s3a}/{@code s3n} {@code s3},
 * Google Cloud Storage {@code gs}; any other type is its own scheme ({@code hdfs}, {@code mysql}, {@code kafka},
 * {@code sftp}, ...). The port is left out when none is registered. A server without a host, or whose type leaves no
 * scheme, has none.
 */
public final class ServerNamespace {

    private static final Map<String, String> SCHEMES = Map.ofEntries(
            Map.entry("hive2", "hive"), Map.entry("hiveserver", "hive"), Map.entry("hiveserver2", "hive"),
            Map.entry("hs2", "hive"), Map.entry("metastore", "hive"), Map.entry("hivemetastore", "hive"),
            Map.entry("hive-metastore", "hive"),
            Map.entry("postgresql", "postgres"), Map.entry("pg", "postgres"),
            Map.entry("mssql", "sqlserver"), Map.entry("s3a", "s3"), Map.entry("s3n", "s3"),
            Map.entry("gcs", "gs"));

    private ServerNamespace() {
    }

    public static Optional<String> of(RegisteredServer server) {
        if (server == null || server.host() == null || server.host().isBlank()) {
            return Optional.empty();
        }
        String scheme = scheme(server.type());
        if (scheme.isEmpty()) {
            return Optional.empty();
        }
        String host = server.host().trim().toLowerCase(Locale.ROOT);
        // An IPv6 literal is bracketed in a URI, so its colons are not read as the port's.
        if (host.contains(":") && !host.startsWith("[")) {
            host = "[" + host + "]";
        }
        return Optional.of(scheme + "://" + host + (server.port() == null ? "" : ":" + server.port()));
    }

    /** The URI scheme for a server type; empty when the type holds no letter to start one. */
    static String scheme(String type) {
        String s = type == null ? "" : type.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9+.-]", "");
        s = s.replaceFirst("^[^a-z]+", "");
        return SCHEMES.getOrDefault(s, s);
    }
}
