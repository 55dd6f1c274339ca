package io.batchyard.lineage.openlineage;

import io.batchyard.lineage.registry.RegisteredServer;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import io.smallrye.config.WithName;
import java.util.Map;
import java.util.Optional;

/** How this installation names its OpenLineage jobs and datasets, and where it pushes RunEvents. */
@ConfigMapping(prefix = "batchyard.lineage.openlineage")
public interface OpenLineageSettings {

    /**
     * Namespace of every Batchyard job (one per installation, so two installations never share job names). Unset: the
     * name of the run's application as the registry announced it, else {@code batchyard}.
     */
    @WithName("job-namespace")
    Optional<String> jobNamespace();

    /** Dataset namespace by the name of the server a process names (the registry's server name). */
    @WithName("server-namespaces")
    Map<String, String> serverNamespaces();

    /** Dataset namespace by application name: {@code hive://host:port}. */
    @WithName("application-namespaces")
    Map<String, String> applicationNamespaces();

    /** Dataset namespace of a run that no mapping names and whose process names no server with a host. */
    @WithName("dataset-namespace")
    @WithDefault("hive://localhost:10000")
    String datasetNamespace();

    /** Dataset namespace by process id (a step's own id first, then its parent's): {@code hive://host:port}. */
    @WithName("process-namespaces")
    Map<String, String> processNamespaces();

    /** The {@code producer} and every facet's {@code _producer}; the default names the project version. */
    @WithDefault("https://github.com/batchyard/batchyard/tree/${quarkus.application.version:0.1.0-SNAPSHOT}")
    String producer();

    Http http();

    Kafka kafka();

    interface Http {
        /** Base URL of the backend; events go to {@code {url}/api/v1/lineage}. Unset: no HTTP push. */
        Optional<String> url();

        /** Sent as {@code Authorization: Bearer <api-key>} when set. */
        @WithName("api-key")
        Optional<String> apiKey();
    }

    interface Kafka {
        /** Topic of OpenLineage JSON (key = run id). Unset: no Kafka push. */
        Optional<String> topic();
    }

    /** The transports events are pushed through; empty when neither a URL nor a topic is set. */
    default java.util.List<String> transports() {
        java.util.List<String> on = new java.util.ArrayList<>();
        http().url().filter(u -> !u.isBlank()).ifPresent(u -> on.add("http"));
        kafka().topic().filter(t -> !t.isBlank()).ifPresent(t -> on.add("kafka"));
        return on;
    }

    /**
     * Dataset namespace of a run. What is configured comes before what is derived, the narrowest mapping first: by its
     * process (own id, then its parent's), by the name of the server it names (its own, else its parent's), by its
     * application's name; then the namespace of that server ({@link ServerNamespace}); else the default.
     * {@code application} and {@code server} may be null (not announced by the registry, or no server named).
     */
    default String namespaceOf(long processId, Long parentProcessId, String application, RegisteredServer server) {
        Map<String, String> map = processNamespaces();
        String own = map.get(Long.toString(processId));
        if (own != null) {
            return own;
        }
        String parent = parentProcessId == null ? null : map.get(Long.toString(parentProcessId));
        if (parent != null) {
            return parent;
        }
        String byServer = server == null ? null : serverNamespaces().get(server.name());
        if (byServer != null) {
            return byServer;
        }
        String byApplication = application == null ? null : applicationNamespaces().get(application);
        if (byApplication != null) {
            return byApplication;
        }
        return ServerNamespace.of(server).orElse(datasetNamespace());
    }

    /** The configured job namespace, else the application's name, else {@code batchyard}. */
    default String jobNamespaceOf(String application) {
        return jobNamespace().filter(n -> !n.isBlank())
                .orElse(application == null || application.isBlank() ? "batchyard" : application);
    }
}
