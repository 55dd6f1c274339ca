package io.batchyard.lineage.render;

/** Quoting for DOT ids and HTML-like labels. */
public final class Dot {

    /** The graph header of spec section 5 (added by the reference's UI). */
    public static final String HEADER = """
            strict digraph g {
              graph [rankdir="LR"];
              node [fontsize="16" shape="ellipse"];
              edge [color="blue"];
            """;

    private Dot() {
    }

    public static String id(String s) {
        return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }

    public static String html(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
