package io.batchyard.client;

/** A process property. A secret one ({@code credential}/{@code security} groups) is answered with a null value. */
public record Property(String configGroup, String key, String value, boolean secret, String description) {
}
