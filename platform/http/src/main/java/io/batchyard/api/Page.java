package io.batchyard.api;

import java.util.List;

/** One page of a list endpoint: the items plus what a client needs to fetch the next page. */
public record Page<T>(List<T> items, long total, int limit, int offset) {

    public static <T> Page<T> of(List<T> items, long total, PageRequest request) {
        return new Page<>(items, total, request.limit(), request.offset());
    }
}
