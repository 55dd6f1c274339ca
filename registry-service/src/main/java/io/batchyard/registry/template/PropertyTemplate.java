package io.batchyard.registry.template;

/** A property template: copied into a new process's properties at instantiation. */
public record PropertyTemplate(long templateId, String configGroup, String key, String value, String description) {
}
