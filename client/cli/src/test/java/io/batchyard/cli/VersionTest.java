package io.batchyard.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code batchyard --version}: the CLI's version, then each service's from its OpenAPI document and whether its API
 * answers; services that do not answer are reported without failing the command.
 */
class VersionTest {

    private static final String OPENAPI = "{\"openapi\":\"3.1.0\",\"info\":{\"title\":\"Batchyard registry-service\","
            + "\"version\":\"0.1.0\"},\"paths\":{}}";

    @AfterEach
    void restoreEnvironment() {
        Connection.environment = System::getenv;
    }

    @Test
    void eachServicesVersionAndReachabilityWithoutFailing(@TempDir Path home) {
        try (FakeService registry = new FakeService().answer("/q/openapi", 200, OPENAPI);
                FakeService lineage = new FakeService()) {
            String closedManagement = FakeService.closedUrl();
            String closedQueue = FakeService.closedUrl();
            Connection.environment = Map.of("XDG_CONFIG_HOME", home.toString(),
                    // up, with its management interface on the same fake server
                    "BATCHYARD_REGISTRY_URL", registry.url(), "BATCHYARD_REGISTRY_MANAGEMENT_URL", registry.url(),
                    // its API answers (any status: here the registry's 404), its management interface does not
                    "BATCHYARD_EXECUTION_URL", registry.url(), "BATCHYARD_EXECUTION_MANAGEMENT_URL", closedManagement,
                    // nothing answers
                    "BATCHYARD_QUEUE_URL", closedQueue, "BATCHYARD_QUEUE_MANAGEMENT_URL", closedQueue,
                    // it answers, but has no OpenAPI document
                    "BATCHYARD_LINEAGE_URL", lineage.url(), "BATCHYARD_LINEAGE_MANAGEMENT_URL", lineage.url())::get;

            FakeService.Run r = FakeService.run("--version");

            assertThat(r.status()).isZero();
            List<String> lines = r.out().lines().toList();
            assertThat(lines).hasSize(5);
            assertThat(lines.get(0)).matches("batchyard (\\(development build\\)|\\d+\\.\\d+\\.\\d+.*)");
            assertThat(lines.subList(1, 5)).containsExactly(
                    "registry-service 0.1.0, " + registry.url() + " reachable",
                    "execution-service version unknown (connection refused: " + closedManagement
                            + "/q/openapi?format=json), " + registry.url() + " reachable",
                    "queue-service version unknown (connection refused: " + closedQueue + "/q/openapi?format=json), "
                            + closedQueue + " unreachable (connection refused)",
                    "lineage-service version unknown (HTTP 404 from " + lineage.url() + "/q/openapi?format=json), "
                            + lineage.url() + " reachable");
        }
    }

    @Test
    void unreadableSettingsStillPrintTheClisVersion() {
        Connection.environment = Map.of("BATCHYARD_CONFIG", "/nonexistent/batchyard.properties")::get;
        FakeService.Run r = FakeService.run("--version");
        assertThat(r.status()).isZero();
        assertThat(r.out().lines().toList()).hasSize(2).last()
                .isEqualTo("services not asked: config file /nonexistent/batchyard.properties not found");
    }

    @Test
    void theManagementInterfaceIsOnTheApisHostAtTheServicesManagementPort() {
        ServiceVersions.Service registry = ServiceVersions.SERVICES.get(0);
        assertThat(registry.management(Map.of("batchyard.registry.url", "https://by.example:8081/")::get))
                .isEqualTo(URI.create("https://by.example:9181"));
        assertThat(registry.management(name -> null)).isEqualTo(URI.create("http://localhost:9181"));
        assertThat(ServiceVersions.SERVICES).extracting(ServiceVersions.Service::name, ServiceVersions.Service::port,
                ServiceVersions.Service::managementPort).containsExactly(
                        org.assertj.core.groups.Tuple.tuple("registry-service", 8081, 9181),
                        org.assertj.core.groups.Tuple.tuple("execution-service", 8082, 9182),
                        org.assertj.core.groups.Tuple.tuple("queue-service", 8083, 9183),
                        org.assertj.core.groups.Tuple.tuple("lineage-service", 8084, 9184));
    }
}
