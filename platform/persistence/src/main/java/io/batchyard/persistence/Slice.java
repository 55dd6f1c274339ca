package io.batchyard.persistence;

import java.util.List;

/** The rows of one page and how many rows the whole list has; the API layer turns it into its page type. */
public record Slice<T>(List<T> items, long total) {
}
