package io.batchyard.cli.bdre;

import java.util.List;

/** A small BDRE installation: two applications, a fork/join tree, an id outside the registry's range, templates. */
final class BdreSamples {

    static final String PASSWORD = "pw-never-printed-7781";
    static final String SSH_KEY = "-----BEGIN OPENSSH PRIVATE KEY-----never-printed-5524";

    private BdreSamples() {
    }

    static Bdre.Process parent(long id, String name, long domain, int type, String next) {
        return new Bdre.Process(id, name, name + " job", domain, type, null, true, List.of(), null, Bdre.ids(next),
                false, 1, "ana", "ROLE_ETL", 7, 6, 4);
    }

    static Bdre.Process step(long id, String name, long parent, int type, String enqueuing, String next) {
        return new Bdre.Process(id, name, "", 2, type, parent, true, Bdre.ids(enqueuing), null, Bdre.ids(next),
                false, 0, "ana", "ROLE_ETL", 7, 6, 4);
    }

    static Bdre.Snapshot installation() {
        List<Bdre.BusDomain> domains = List.of(
                new Bdre.BusDomain(1, "Corporate Security Analytics", "Corporate Security Analytics", "bdre@wipro"),
                new Bdre.BusDomain(2, "Retail Sales", "Orders and returns", "ana"),
                new Bdre.BusDomain(3, "Fraud", "", ""));
        Bdre.Process far = new Bdre.Process(150_000_000L, "fraud-ingest", "far id", 3, 1, null, false, List.of(),
                null, List.of(150_000_001L), false, 1, "bo", null, 7, 4, 0);
        Bdre.Process farStep = new Bdre.Process(150_000_001L, "fraud-sftp", "far step", 3, 12, 150_000_000L, true,
                List.of(), "EOD", List.of(150_000_000L), false, 0, "bo", null, 7, 4, 0);
        List<Bdre.Process> processes = List.of(
                parent(10, "sales-semantic", 2, 2, "11"),
                step(11, "load orders", 10, 9, "20", "12,13"),
                step(12, "fork-a", 10, 22, "0", "14"),
                step(13, "fork-b", 10, 25, "0", "14"),
                step(14, "join", 10, 9, "0", "10"),
                parent(20, "orders-ingest", 2, 1, "21"),
                step(21, "orders-sftp", 20, 12, "0", "20"),
                new Bdre.Process(30, "old-job", "gone", 2, 1, null, true, List.of(), null, List.of(), true, 1,
                        null, null, null, null, null),
                far, farStep);
        List<Bdre.Property> props = List.of(
                new Bdre.Property(11, "query", "hive query", "select * from orders where note = 'a  b'", "the query"),
                new Bdre.Property(11, "param", " leading space", "x", ""),
                new Bdre.Property(12, "script", "run.sh", "run.sh --day  today", "script"),
                new Bdre.Property(13, "credential", "db password", "pw-in-a-property", "secret"),
                new Bdre.Property(13, "security", "keytab", "/etc/ana.keytab", ""),
                new Bdre.Property(21, "imp-common", "source dir", "/in/orders", "where files land"),
                new Bdre.Property(150_000_001L, "dq", "min rows", "10", ""));
        List<Bdre.Template> templates = List.of(
                new Bdre.Template(0, "default process", "default", 1, 1, null, true, null, List.of(), false, 1),
                new Bdre.Template(5, "semantic template", "a semantic job", 2, 2, null, true, null, List.of(6L),
                        false, 1),
                new Bdre.Template(6, "hive step", "a hive step", 2, 9, 5L, true, null, List.of(5L), false, 0));
        List<Bdre.Property> templateProps = List.of(
                new Bdre.Property(6, "query", "query file", "q.hql", "the query"));
        List<Bdre.Server> servers = List.of(
                new Bdre.Server(123461, "hdfs", "localhost", "", "", "", "", "127.0.0.1"),
                new Bdre.Server(7, "ssh", "etl-edge", "edge node", "etl", PASSWORD, SSH_KEY, "10.0.0.7"));
        return new Bdre.Snapshot(domains, processes, props, templates, templateProps, servers);
    }
}
