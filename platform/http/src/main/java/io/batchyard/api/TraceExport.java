package io.batchyard.api;

import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import io.quarkus.arc.Unremovable;
import io.quarkus.arc.lookup.LookupIfProperty;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.util.Collection;

/**
 * Spans leave a service only for a collector that was named: {@code OTEL_EXPORTER_OTLP_ENDPOINT} (or
 * {@code quarkus.otel.exporter.otlp.endpoint}). Quarkus' OTLP exporter would otherwise send to localhost:4317 and log
 * every failed attempt, and the switches that turn it off are fixed when the service is built. So without an endpoint
 * this exporter is the service's: Quarkus exports to exporter beans when there are any instead of over OTLP, and this
 * one drops what it gets. Tracing itself stays on either way, since every outbox row and record still needs the
 * traceparent of the work that caused it.
 */
@Singleton
public class TraceExport {

    @Produces
    @Singleton
    @Unremovable
    // Looked up only while no endpoint is configured: a configured one never equals the empty string.
    @LookupIfProperty(name = "quarkus.otel.exporter.otlp.endpoint", stringValue = "", lookupIfMissing = true)
    SpanExporter withoutCollector() {
        return new SpanExporter() {
            @Override
            public CompletableResultCode export(Collection<SpanData> spans) {
                return CompletableResultCode.ofSuccess();
            }

            @Override
            public CompletableResultCode flush() {
                return CompletableResultCode.ofSuccess();
            }

            @Override
            public CompletableResultCode shutdown() {
                return CompletableResultCode.ofSuccess();
            }
        };
    }
}
