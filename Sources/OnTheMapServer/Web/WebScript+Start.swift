import OnTheMapMap

extension WebScript {
    /// The map, the controls' events, and the first screen: the map at once if this tab holds a
    /// session (checked with the server meanwhile: an ended one goes to the login screen with a
    /// message), the login screen otherwise.
    static let start = #"""
        var view=mapView({svg:$("map"),world:$("world"),layer:$("markers"),popup:$("popup"),heading:$("popup-heading"),list:$("popup-list"),
        close:$("close"),entry:$("popup-entry").content.firstElementChild,reach:\#(MapDocumentAssets.clusterReach),
        top:\#(MapDocument.initialBand.top),bottom:\#(MapDocument.initialBand.bottom),onView:followZoom,
        active:function(){return !!state.session&&$("list-view").hidden&&!$("overwrite").open;}});
        $("markers").parentNode.appendChild(previewLayer);
        view.setMarkers([]);
        $("login").addEventListener("submit",login);
        $("logout").addEventListener("click",logout);
        $("refresh").addEventListener("click",function(){refresh();});
        $("map-tab").addEventListener("click",function(){showTab("map");});
        $("list-tab").addEventListener("click",function(){closePost(true);showTab("list");});
        $("search").addEventListener("input",search);
        $("student-list").addEventListener("click",function(ev){if(ev.target.closest("a"))return;openRow(ev.target.closest("li"));});
        $("student-list").addEventListener("keydown",function(ev){if(ev.key==="Enter"&&ev.target.matches("li"))openRow(ev.target);});
        $("post-open").addEventListener("click",openPost);
        $("post").addEventListener("submit",find);
        $("post-cancel").addEventListener("click",function(){closePost(true);});
        $("post-finish").addEventListener("click",finish);
        $("overwrite").addEventListener("close",answered);
        $("alert-close").addEventListener("click",hideAlert);
        document.addEventListener("keydown",function(ev){if(ev.key==="Escape"&&!$("post").hidden&&!$("overwrite").open)closePost(true);});
        (function(){var saved=loadSession();if(!saved){leave();return;}state.session=saved;enter();})();
        """#
}
