package io.batchyard.lineage.render;

/** Quoting for DOT ids and HTML-like labels. */
public final class Dot {

    /** The header of the reference's lineage graphs (added by its UI). */
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
