package io.batchyard.lineage.openlineage;

import static org.assertj.core.api.Assertions.assertThat;

import io.batchyard.lineage.registry.RegisteredServer;
import java.net.URI;
import org.junit.jupiter.api.Test;

/** A server's dataset namespace by OpenLineage's naming conventions: {@code <scheme>://<host>:<port>}. */
class ServerNamespaceTest {

    @Test
    void hiveServersAreHiveHostPort() {
        assertThat(ns("hive", "metastore.example", 9083)).isEqualTo("hive://metastore.example:9083");
        assertThat(ns("HiveServer2", "HS2.Example", 10000)).isEqualTo("hive://hs2.example:10000");
        assertThat(ns("Hive Server 2", "hs2", 10000)).isEqualTo("hive://hs2:10000");
        assertThat(ns("hive_metastore", "m", 9083)).isEqualTo("hive://m:9083");
    }

    @Test
    void otherTypesAreTheirOwnSchemeWithTheConventionsSpellings() {
        assertThat(ns("hdfs", "127.0.0.1", 8020)).isEqualTo("hdfs://127.0.0.1:8020");
        assertThat(ns("PostgreSQL", "db.example", 5432)).isEqualTo("postgres://db.example:5432");
        assertThat(ns("mssql", "sql.example", 1433)).isEqualTo("sqlserver://sql.example:1433");
        assertThat(ns("s3a", "bucket", null)).isEqualTo("s3://bucket");
        assertThat(ns("gcs", "bucket", null)).isEqualTo("gs://bucket");
        assertThat(ns("sftp", "edge", 22)).isEqualTo("sftp://edge:22");
    }

    @Test
    void theResultIsAUriWhoseHostAndPortAreTheServers() {
        String ns = ns("hive", "fe80::1", 10000);
        assertThat(ns).isEqualTo("hive://[fe80::1]:10000");
        URI uri = URI.create(ns);
        assertThat(uri.getPort()).isEqualTo(10000);
        assertThat(uri.getHost()).isEqualTo("[fe80::1]");
    }

    @Test
    void noHostOrNoSchemeGivesNone() {
        assertThat(ServerNamespace.of(new RegisteredServer(1, "s", "hive", null, 10000))).isEmpty();
        assertThat(ServerNamespace.of(new RegisteredServer(1, "s", "hive", "  ", 10000))).isEmpty();
        assertThat(ServerNamespace.of(new RegisteredServer(1, "s", "2 ", "h", 10000))).isEmpty();
        assertThat(ServerNamespace.of(null)).isEmpty();
    }

    private static String ns(String type, String host, Integer port) {
        return ServerNamespace.of(new RegisteredServer(1, "s", type, host, port)).orElseThrow();
    }
}
