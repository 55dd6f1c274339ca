package io.batchyard.api;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.QueryParam;

/** {@code ?limit=&offset=} on every list endpoint; bounded so one request cannot dump a whole table. */
public class PageRequest {

    public static final int MAX_LIMIT = 500;

    @QueryParam("limit")
    @DefaultValue("50")
    @Min(1)
    @Max(MAX_LIMIT)
    int limit = 50;

    @QueryParam("offset")
    @DefaultValue("0")
    @Min(0)
    int offset;

    public PageRequest() {
    }

    public PageRequest(int limit, int offset) {
        this.limit = limit;
        this.offset = offset;
    }

    public int limit() {
        return limit;
    }

    public int offset() {
        return offset;
    }
}
