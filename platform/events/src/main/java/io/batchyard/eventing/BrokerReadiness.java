package io.batchyard.eventing;

import io.quarkus.runtime.ShutdownEvent;
import io.smallrye.common.annotation.Identifier;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Duration;
import java.util.Collection;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.apache.kafka.common.Node;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/**
 * Readiness half of "the database and the broker are reachable", the same in every service because every service
 * relays an outbox: a service whose events cannot leave is not ready. (The database half is the datasource health
 * check of the Agroal extension.) The answer is bounded by {@code batchyard.health.broker-timeout}: the Quarkus Kafka
 * client's own check waits for the admin client's default API timeout (60 s) when the broker is down. Readiness
 * only: a broker outage must never make an orchestrator restart a service that will recover on its own.
 */
@Readiness
@ApplicationScoped
public class BrokerReadiness implements HealthCheck {

    private final Map<String, Object> broker;
    private final Duration timeout;
    private volatile Admin admin;

    BrokerReadiness(@Identifier(BrokerSettings.DEFAULT_BROKER) Map<String, Object> broker,
                    @ConfigProperty(name = "batchyard.health.broker-timeout", defaultValue = "PT2S") Duration timeout) {
        this.broker = broker;
        this.timeout = timeout;
    }

    @Override
    public HealthCheckResponse call() {
        var response = HealthCheckResponse.named("Kafka broker reachable").withData("bootstrap",
                String.valueOf(broker.get(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG)));
        try {
            Collection<Node> nodes = admin().describeCluster(new DescribeClusterOptions().timeoutMs((int) timeout.toMillis()))
                    .nodes().get(timeout.toMillis() + 500, TimeUnit.MILLISECONDS);
            return response.status(!nodes.isEmpty()).withData("brokers", nodes.size()).build();
        } catch (ExecutionException | TimeoutException e) {
            Throwable cause = e instanceof ExecutionException && e.getCause() != null ? e.getCause() : e;
            return response.down().withData("reason", cause.getClass().getSimpleName()).build();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return response.down().withData("reason", "interrupted").build();
        }
    }

    private Admin admin() {
        Admin local = admin;
        if (local == null) {
            synchronized (this) {
                local = admin;
                if (local == null) {
                    local = Admin.create(adminConfig());
                    admin = local;
                }
            }
        }
        return local;
    }

    /**
     * The channels' broker settings (bootstrap, security), then the check's own timeouts, which win: they bound the
     * probe. Package-visible for tests.
     */
    Properties adminConfig() {
        Properties props = BrokerSettings.forClient(broker, AdminClientConfig.configNames());
        props.put(AdminClientConfig.CLIENT_ID_CONFIG, "readiness");
        props.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, (int) timeout.toMillis());
        props.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) timeout.toMillis());
        // Reconnect promptly once the broker is back, so readiness follows it within a probe or two.
        props.put(AdminClientConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG, 1000);
        return props;
    }

    void close(@Observes ShutdownEvent ignored) {
        Admin local = admin;
        if (local != null) {
            local.close(Duration.ofSeconds(2));
        }
    }
}
