package io.batchyard.execution.runner;

/** A bucket key, its script, and how its value becomes arguments ({@code -s $1 -e $2}). */
public record BucketKey(String key, String script, String paramFormat) {
}
