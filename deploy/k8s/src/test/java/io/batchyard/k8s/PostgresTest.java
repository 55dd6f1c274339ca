package io.batchyard.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * One CloudNativePG cluster; per service a managed role and a Database it owns; each service connects to its own
 * database, as its own role, with the password of that role's Secret, over TLS.
 */
class PostgresTest {

    private static final Map<String, String> DATABASES = Map.of(
            "registry-service", "batchyard_registry",
            "execution-service", "batchyard_execution",
            "queue-service", "batchyard_queue",
            "lineage-service", "batchyard_lineage",
            "schema-registry", "batchyard_schemas");

    static Stream<String> trees() {
        return Manifests.trees();
    }

    @ParameterizedTest
    @MethodSource("trees")
    void everyServiceUsesItsOwnDatabaseAsItsOwnRole(String tree) {
        Manifests m = Manifests.of(tree);
        JsonNode cluster = m.get("Cluster", "batchyard-pg");
        Map<String, String> roleSecrets = new HashMap<>();
        for (JsonNode role : cluster.at("/spec/managed/roles")) {
            assertThat(role.path("ensure").asText()).isEqualTo("present");
            assertThat(role.path("login").asBoolean()).isTrue();
            assertThat(role.path("superuser").asBoolean(false)).isFalse();
            roleSecrets.put(role.path("name").asText(), role.at("/passwordSecret/name").asText());
        }
        Map<String, String> owners = new HashMap<>();
        m.kind("Database").forEach(db -> {
            assertThat(db.at("/spec/cluster/name").asText()).isEqualTo("batchyard-pg");
            assertThat(db.at("/spec/databaseReclaimPolicy").asText()).as("dropping the resource keeps the data")
                    .isEqualTo("retain");
            owners.put(db.at("/spec/name").asText(), db.at("/spec/owner").asText());
        });
        assertThat(owners.keySet()).isEqualTo(Set.copyOf(DATABASES.values()));
        assertThat(new TreeSet<>(owners.values())).as("one role per database").hasSize(DATABASES.size());

        for (Map.Entry<String, String> e : DATABASES.entrySet()) {
            String app = e.getKey();
            String owner = owners.get(e.getValue());
            JsonNode c = Manifests.container(m.get("Deployment", app));
            String prefix = app.equals("schema-registry") ? "APICURIO_DATASOURCE_" : "QUARKUS_DATASOURCE_";
            String url = Manifests.env(c, prefix + (app.equals("schema-registry") ? "URL" : "JDBC_URL")).path("value").asText();
            assertThat(url).as(app).startsWith("jdbc:postgresql://$(PG_HOST):5432/" + e.getValue() + "?$(PG_JDBC_TLS)");
            String secret = roleSecrets.get(owner);
            assertThat(secret).as(app + " owner " + owner + " is a managed role").isNotNull();
            assertThat(Manifests.env(c, prefix + "USERNAME").at("/valueFrom/secretKeyRef/name").asText()).isEqualTo(secret);
            assertThat(Manifests.env(c, prefix + "PASSWORD").at("/valueFrom/secretKeyRef/name").asText()).isEqualTo(secret);
            if (!app.equals("schema-registry")) {
                assertThat(Manifests.env(c, "QUARKUS_DATASOURCE_REACTIVE_URL").path("value").asText())
                        .isEqualTo("postgresql://$(PG_HOST):5432/" + e.getValue());
            }
        }
        JsonNode db = m.get("ConfigMap", "batchyard-database").path("data");
        assertThat(db.path("PG_HOST").asText()).isEqualTo("batchyard-pg-rw");
        assertThat(db.path("PG_JDBC_TLS").asText()).contains("sslmode=verify-full");
        assertThat(db.path("QUARKUS_DATASOURCE_REACTIVE_POSTGRESQL_SSL_MODE").asText()).isEqualTo("verify-full");
        assertThat(cluster.at("/spec/postgresql/pg_hba").toString()).contains("hostnossl all all all reject");
    }

    @Test
    void productionRunsThreeInstancesWithASynchronousStandby() {
        JsonNode prod = Manifests.of("production").get("Cluster", "batchyard-pg").path("spec");
        assertThat(prod.path("instances").asInt()).isEqualTo(3);
        assertThat(prod.at("/postgresql/synchronous/number").asInt()).isEqualTo(1);
        assertThat(prod.at("/affinity/podAntiAffinityType").asText()).isEqualTo("required");
        assertThat(Manifests.of("local").get("Cluster", "batchyard-pg").at("/spec/instances").asInt()).isEqualTo(1);
        // Room for every replica the autoscalers may start: a reactive pool of 20 each (the JDBC pool serves Flyway at
        // start and the readiness check, a connection or two), the registry's 10, and the operator's own.
        int replicas = Manifests.of("production").kind("HorizontalPodAutoscaler")
                .filter(h -> !Manifests.name(h).equals("dashboard"))
                .mapToInt(h -> h.at("/spec/maxReplicas").asInt()).sum();
        int registry = Manifests.of("production").get("Deployment", "schema-registry").at("/spec/replicas").asInt();
        assertThat(prod.at("/postgresql/parameters/max_connections").asInt())
                .isGreaterThanOrEqualTo(replicas * 20 + registry * 10 + 50);
    }

    @Test
    void theDatabasesAreTheOnesTheServicesDefaultTo() {
        Set<String> defaults = SourceFacts.DEPLOYABLES.stream().filter(s -> !s.equals("dashboard"))
                .map(s -> SourceFacts.read(SourceFacts.REPO.resolve(s + "/src/main/resources/application.properties")))
                .map(p -> p.lines().filter(l -> l.startsWith("quarkus.datasource.jdbc.url=")).findFirst().orElseThrow())
                .map(l -> l.substring(l.lastIndexOf('/') + 1)).collect(Collectors.toCollection(TreeSet::new));
        assertThat(defaults).containsExactlyInAnyOrder("batchyard_registry", "batchyard_execution", "batchyard_queue",
                "batchyard_lineage");
    }
}
