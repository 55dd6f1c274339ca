package io.batchyard.registry;

import java.util.List;

/** One page of a filtered list and the size of the whole list, as a service returns it to its resource. */
public record Listing<T>(List<T> items, long total) {
}
