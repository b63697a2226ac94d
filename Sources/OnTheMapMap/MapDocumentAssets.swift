/// The style and script inlined into exported maps; the map's part is shared with the server's page.
public enum MapDocumentAssets {
    static let svgCSS = """
        .sea{fill:#dbe9f4}.land{fill:#f4f1e8;stroke:#9a8f78;stroke-width:1px;vector-effect:non-scaling-stroke}\
        .border{fill:none;stroke:#c2b8a3;stroke-width:.6px;vector-effect:non-scaling-stroke}\
        .marker{cursor:pointer}.marker circle{fill:#d6402b;stroke:#fff;stroke-width:1px;vector-effect:non-scaling-stroke}\
        .marker.mine circle{fill:#6a2bd6}\
        .marker text{fill:#fff;font:bold 10px system-ui,sans-serif;text-anchor:middle;dominant-baseline:central;pointer-events:none}
        """

    /// How close on screen, in pixels, markers are drawn as one cluster.
    public static let clusterReach = 28

    /// The map's style, shared by the export and the server's page: the world, markers, clusters and
    /// the popup. Names, places and links are isolated from the text around them (a right-to-left
    /// override in a name stays in the name) and break anywhere (a 10 KB name wraps in its box).
    public static let mapCSS = """
        #stage{background:#dbe9f4}#world,#map{position:absolute;top:0;left:0;width:100%;height:100%;display:block}\
        #world{transform-origin:0 0;will-change:transform;pointer-events:none}\
        #map{transform-origin:0 0;will-change:transform;cursor:grab;touch-action:none;-webkit-user-select:none;user-select:none}\
        #map.dragging{cursor:grabbing;overflow:visible}\(svgCSS).marker.hidden{display:none}\
        .marker.selected circle{stroke:#000;stroke-width:2px}.cluster{cursor:pointer}\
        .cluster circle{fill:#d6402b;stroke:#eebbb0;stroke-width:10px}\
        .cluster.mine circle{fill:#6a2bd6;stroke:#cab6e3}.cluster.selected circle{stroke:#808080}\
        .cluster text{fill:#fff;font:bold 11px system-ui,sans-serif;text-anchor:middle;dominant-baseline:central;pointer-events:none}\
        .marker:focus,.cluster:focus{outline:none}\
        .marker:focus-visible circle,.cluster:focus-visible circle{stroke:#1a5fb4;stroke-width:3px;stroke-opacity:1}\
        #popup{position:absolute;z-index:2;min-width:12em;max-width:min(24em,calc(100% - 8px));box-sizing:border-box;padding:.6em .8em;\
        background:#fff;border-radius:6px;box-shadow:0 2px 10px rgba(0,0,0,.25);overflow-wrap:anywhere}#popup[hidden]{display:none}\
        #popup h2{margin:0 1.2em .4em 0;font-size:1em}#popup ul{list-style:none;margin:0;padding:0;max-height:20em;overflow-y:auto}\
        #popup li:first-child{padding-right:1.2em}#popup li+li{margin-top:.4em;padding-top:.4em;border-top:1px solid #eee}\
        #popup .name,#popup .place,#popup a{unicode-bidi:isolate}#popup .name{display:inline-block;max-height:6em;overflow:hidden}\
        #popup a{color:#1a5fb4}.you{color:#6a2bd6}\
        #close{position:absolute;top:.2em;right:.3em;border:0;background:none;font-size:1.2em;cursor:pointer}
        """

    /// The export page: a one-line header over a map that fills the rest of the window. On a narrow
    /// screen the hint gives way (it wrapped a word per line at 390 pixels), and on a touch screen,
    /// where its wheel and keys are not to be had.
    static let css = """
        html,body{margin:0;height:100%;font:14px/1.4 system-ui,sans-serif;color:#222}\
        body{display:flex;flex-direction:column}\
        header{display:flex;gap:.8em;align-items:center;padding:.4em .8em;background:#fff;border-bottom:1px solid #ddd;white-space:nowrap}\
        #search{flex:0 1 20em;min-width:6em;padding:.3em .5em;font:inherit}\
        .hint{color:#888;margin-left:auto;overflow:hidden;text-overflow:ellipsis;min-width:0}\
        @media (max-width:760px),(pointer:coarse){.hint{display:none}}\
        main{position:relative;flex:1;overflow:hidden}\(mapCSS)
        """

    /// The export's script: the shared map (`MapScript`) on the markers written into the page, and
    /// the search box, which filters them by name or place and says how many are left.
    static let script = """
        (function(){
        "use strict";
        \(MapScript.engine)
        var search=document.getElementById("search"),count=document.getElementById("count"),
        markers=Array.prototype.slice.call(document.querySelectorAll(".marker")),total=document.querySelectorAll(".student").length,
        view=mapView({svg:document.getElementById("map"),world:document.getElementById("world"),layer:document.getElementById("markers"),popup:document.getElementById("popup"),
        heading:document.getElementById("popup-heading"),list:document.getElementById("popup-list"),close:document.getElementById("close"),
        entry:document.getElementById("popup-entry").content.firstElementChild,reach:\(clusterReach),
        top:\(MapDocument.initialTop),bottom:\(MapDocument.initialBottom)});
        view.setMarkers(markers);
        search.addEventListener("input",function(){var q=search.value.trim(),found=view.filter(q);
        count.textContent=(q?found+" of "+total:total)+" students";});
        })();
        """
}
