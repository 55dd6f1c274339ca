package io.batchyard.cli.bdre;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.batchyard.client.ProblemException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The import against a registry in memory: what it writes, what a second run and a dry run do, resuming. */
class ImporterTest {

    @Test
    void aFirstRunCreatesTheInstallationAndASecondRunChangesNothing() {
        InMemoryRegistry registry = new InMemoryRegistry();
        Report first = new Importer(registry, false).run(BdreSamples.installation());
        assertThat(first.refusedAny()).as(texts(first)).isFalse();

        long retail = registry.applicationNamed("Retail Sales").orElseThrow().id();
        assertThat(registry.processes.get(10L).applicationId()).isEqualTo(retail);
        assertThat(registry.processes.get(10L).next()).containsExactly(11L);
        assertThat(registry.processes.get(11L).next()).containsExactlyInAnyOrder(12L, 13L);
        assertThat(registry.processes.get(11L).enqueuing()).containsExactly(20L);
        assertThat(registry.processes.get(11L).description()).as("an empty description").isEqualTo("load orders");
        assertThat(registry.processes.get(14L).next()).containsExactly(10L);
        assertThat(registry.processes).doesNotContainKey(30L);
        // BDRE ids outside the range get the registry's, and the property says which BDRE id they were
        Registry.Process far = registry.processes.values().stream().filter(p -> p.name().equals("fraud-ingest"))
                .findFirst().orElseThrow();
        assertThat(far.id()).isGreaterThanOrEqualTo(100_000_000L);
        assertThat(registry.properties(far.id())).extracting(Registry.Property::key, Registry.Property::value)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(BdreMapping.ORIGIN_KEY, "150000000"));
        Registry.Process farStep = registry.processes.values().stream().filter(p -> p.name().equals("fraud-sftp"))
                .findFirst().orElseThrow();
        assertThat(farStep.parentId()).isEqualTo(far.id());
        assertThat(far.next()).containsExactly(farStep.id());
        assertThat(farStep.batchCutPattern()).isEqualTo("EOD");
        assertThat(first.mapping()).extracting(Report.Mapped::text)
                .contains("BDRE process 150000000 -> " + far.id() + " (outside 1-99,999,999)");
        // keys and values exactly, spaces kept; secrets stored
        Map<String, Registry.Property> props11 = registry.properties.get(11L);
        assertThat(props11).containsKeys("hive query", " leading space");
        assertThat(props11.get("hive query").value()).isEqualTo("select * from orders where note = 'a  b'");
        assertThat(registry.properties.get(13L).get("db password").value()).isEqualTo("pw-in-a-property");
        // permissions: BDRE's are per process; Sales' parents agree
        assertThat(registry.permissions(retail)).isEqualTo(new Registry.Permissions("ana", "ROLE_ETL", 7, 6, 4));
        // servers: the seeded one matched by name, the new one with its credentials
        assertThat(registry.servers).hasSize(2);
        Registry.Server edge = registry.servers().stream().filter(s -> s.name().equals("etl-edge")).findFirst()
                .orElseThrow();
        assertThat(edge.hasLoginPassword()).isTrue();
        assertThat(edge.hasSshPrivateKey()).isTrue();
        assertThat(registry.passwords.get(edge.id())).isEqualTo(BdreSamples.PASSWORD);
        // templates: a tree, the built-in template 0 skipped
        assertThat(registry.templates).hasSize(2);
        assertThat(first.lines()).extracting(Report.Line::text)
                .contains("skip template 'default process' (BDRE template 0): BDRE's built-in default template",
                        "skip process 30 'old-job': deleted in BDRE",
                        "no change server 'localhost' (BDRE server 123461)");

        int writes = registry.writes;
        Report second = new Importer(registry, false).run(BdreSamples.installation());
        assertThat(registry.writes).as(texts(second)).isEqualTo(writes);
        assertThat(second.lines()).allMatch(l -> l.kind() == Report.Kind.NO_CHANGE || l.kind() == Report.Kind.SKIP,
                texts(second));
        assertThat(second.summary()).startsWith("0 created, 0 changed, ");
    }

    @Test
    void aDryRunWritesNothingAndNamesWhatARealRunWouldDo() {
        InMemoryRegistry registry = new InMemoryRegistry();
        Report dry = new Importer(registry, true).run(BdreSamples.installation());
        assertThat(registry.writes).isZero();
        assertThat(dry.summary()).startsWith("dry run, nothing written: ");
        Report real = new Importer(new InMemoryRegistry(), false).run(BdreSamples.installation());
        assertThat(dry.lines()).extracting(Report.Line::kind, Report.Line::object)
                .containsExactlyInAnyOrderElementsOf(real.lines().stream()
                        .map(l -> org.assertj.core.groups.Tuple.tuple(l.kind(), l.object())).toList());
    }

    @Test
    void anImportStoppedHalfwayFinishesOnTheNextRunWithoutDuplicates() {
        InMemoryRegistry clean = new InMemoryRegistry();
        new Importer(clean, false).run(BdreSamples.installation());
        for (int stopAt = 0; stopAt < clean.writes; stopAt += 3) {
            InMemoryRegistry registry = new InMemoryRegistry();
            registry.failAfterWrites = stopAt;
            assertThatThrownBy(() -> new Importer(registry, false).run(BdreSamples.installation()))
                    .isInstanceOf(ProblemException.class);
            registry.failAfterWrites = -1;
            Report resumed = new Importer(registry, false).run(BdreSamples.installation());
            assertThat(resumed.refusedAny()).as("stopped after %d writes: %s", stopAt, texts(resumed)).isFalse();
            assertThat(shape(registry)).as("stopped after %d writes", stopAt).isEqualTo(shape(clean));
            assertThat(new Importer(registry, false).run(BdreSamples.installation()).unchanged()).isTrue();
        }
    }

    @Test
    void whatTheRegistryWouldRefuseIsReportedWithItsReasonAndTheRestIsImported() {
        Bdre.Snapshot base = BdreSamples.installation();
        List<Bdre.Process> processes = new ArrayList<>(base.processes());
        processes.add(BdreSamples.parent(40, "streaming", 2, 41, "41"));
        processes.add(BdreSamples.step(41, "kafka-source", 40, 42, "0", "40"));
        processes.add(BdreSamples.step(42, "wrong-type", 20, 9, "0", "20"));
        List<Bdre.Property> props = new ArrayList<>(base.properties());
        props.add(new Bdre.Property(21, "param", "a/b", "x", ""));
        List<Bdre.Property> templateProps = new ArrayList<>(base.templateProperties());
        templateProps.add(new Bdre.Property(6, "credential", "pw", "x", ""));
        Bdre.Snapshot snapshot = new Bdre.Snapshot(base.busDomains(), processes, props, base.templates(),
                templateProps, base.servers());
        InMemoryRegistry registry = new InMemoryRegistry();
        Report report = new Importer(registry, false).run(snapshot);
        assertThat(report.lines()).filteredOn(l -> l.kind() == Report.Kind.REFUSE).extracting(Report.Line::text)
                .containsExactlyInAnyOrder(
                        "refuse process 40 'streaming': process type 41 is not one of Batchyard's process types",
                        "refuse step 41 'kafka-source': its parent 40 is refused",
                        "refuse step 42 'wrong-type': process type 9 needs a parent of type 2, its parent is of type 1",
                        "refuse property 'a/b' of process 21: the key holds '/', which Batchyard refuses in property keys",
                        "refuse property 'pw' of template 'hive step': config group credential is secret: Batchyard "
                                + "keeps secrets on processes only, not on templates");
        assertThat(registry.processes).containsKeys(10L, 20L, 21L).doesNotContainKeys(40L, 41L, 42L);
    }

    @Test
    void credentialsNeverReachTheReport() {
        InMemoryRegistry registry = new InMemoryRegistry();
        Report created = new Importer(registry, false).run(BdreSamples.installation());
        Bdre.Snapshot changed = BdreSamples.installation();
        List<Bdre.Server> servers = List.of(new Bdre.Server(7, "ssh", "etl-edge", "edge node", "etl", "", "",
                "10.0.0.8"));
        Report update = new Importer(registry, false).run(new Bdre.Snapshot(changed.busDomains(),
                changed.processes(), changed.properties(), changed.templates(), changed.templateProperties(), servers));
        assertThat(update.lines()).extracting(Report.Line::text)
                .contains("change server 'etl-edge' (BDRE server 7): serverIp, loginPassword, sshPrivateKey");
        assertThat(registry.servers().stream().filter(s -> s.name().equals("etl-edge")).findFirst().orElseThrow()
                .hasLoginPassword()).isFalse();
        for (Report r : List.of(created, update)) {
            assertThat(texts(r) + r.mapping()).doesNotContain(BdreSamples.PASSWORD).doesNotContain(BdreSamples.SSH_KEY)
                    .doesNotContain("pw-in-a-property");
        }
    }

    @Test
    void anApplicationFilterImportsOnlyThoseBusDomainsAndWhatBelongsToThem() {
        InMemoryRegistry registry = new InMemoryRegistry();
        Report report = new Importer(registry, false).run(BdreSamples.installation().onlyDomains(List.of("Fraud")));
        assertThat(report.refusedAny()).as(texts(report)).isFalse();
        assertThat(registry.applicationNamed("Retail Sales")).isEmpty();
        assertThat(registry.processes.values()).extracting(Registry.Process::name)
                .containsExactlyInAnyOrder("fraud-ingest", "fraud-sftp");
        assertThat(registry.templates).isEmpty();
        assertThat(registry.servers()).extracting(Registry.Server::name).as("servers belong to no bus domain")
                .contains("etl-edge");
    }

    /** The registry's content with generated ids replaced by names, to compare two registries. */
    private static List<String> shape(InMemoryRegistry r) {
        Map<Long, String> names = r.processes.values().stream()
                .collect(Collectors.toMap(Registry.Process::id, Registry.Process::name));
        List<String> out = new ArrayList<>();
        r.processes.values().forEach(p -> out.add(p.name() + " parent=" + names.get(p.parentId()) + " next="
                + p.next().stream().map(names::get).sorted().toList() + " enq=" + p.enqueuing().stream()
                .map(names::get).toList() + " props=" + r.properties(p.id()).stream().map(Registry.Property::key)
                .sorted().toList()));
        r.templates.values().forEach(t -> out.add("template " + t.name() + " next=" + t.next().size()
                + " props=" + r.templateProperties(t.id()).size()));
        r.servers().forEach(s -> out.add("server " + s.name() + " " + s.hasLoginPassword()));
        r.applications.values().forEach(a -> out.add("app " + a.name() + " " + r.permissions(a.id())));
        return out.stream().sorted().toList();
    }

    private static String texts(Report r) {
        return r.lines().stream().map(Report.Line::text).collect(Collectors.joining("\n"));
    }
}
