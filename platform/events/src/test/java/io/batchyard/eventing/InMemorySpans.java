package io.batchyard.eventing;

import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

/** Where the test application's spans go: Quarkus exports to exporter beans, this one keeps them for the tests. */
@Singleton
class InMemorySpans {

    @Produces
    @Singleton
    InMemorySpanExporter spans() {
        return InMemorySpanExporter.create();
    }
}
