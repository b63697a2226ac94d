extension WebScript {
    /// The list: name, place, link and when each pin was updated, newest first (the order the
    /// server sends); a tap on a row opens its link in a new tab, as the seeds' table does. Drawn
    /// when first shown after a change: ten thousand rows cost nothing while the map is on screen.
    static let list = #"""
        function drawList(){var ol=$("student-list"),frag=document.createDocumentFragment(),tpl=$("list-entry").content.firstElementChild;
        state.students.forEach(function(s){var li=tpl.cloneNode(true),link=li.querySelector(".link"),time=li.querySelector(".updated"),
        name=nameOf(s),when=Date.parse(s.updatedAt);
        li.dataset.objectId=s.objectId;li.dataset.find=fold(name+"\n"+s.mapString);
        li.querySelector(".name").textContent=name;li.querySelector(".you").hidden=!isMine(s);
        li.querySelector(".place").textContent=s.mapString;
        if(isWebLink(s.mediaURL)){var a=document.createElement("a");a.href=s.mediaURL;a.target="_blank";a.rel="noopener noreferrer";
        a.textContent=s.mediaURL;a.tabIndex=-1;link.append(a);li.dataset.url=s.mediaURL;
        li.setAttribute("aria-label",name.slice(0,120)+", "+s.mapString.slice(0,120)+": open their link");}
        else{link.textContent=s.mediaURL||"no link";link.classList.add("nolink");}
        time.dateTime=s.updatedAt;time.textContent=ago(s.updatedAt);if(!isNaN(when))time.title=new Date(when).toLocaleString();
        frag.appendChild(li);});
        ol.replaceChildren(frag);state.listDirty=false;
        $("list-empty").textContent=state.students.length?"":"No pins yet. Post yours with the pin button.";
        $("list-empty").hidden=!!state.students.length;filterList($("search").value);}
        function filterList(q){q=fold(q.trim());var rows=$("student-list").children;
        for(var i=0;i<rows.length;i++)rows[i].hidden=!!q&&rows[i].dataset.find.indexOf(q)<0;}
        function openRow(li){if(li&&li.dataset.url&&isWebLink(li.dataset.url))window.open(li.dataset.url,"_blank","noopener,noreferrer");}
        function showTab(which){var list=which==="list",view_=$("list-view");
        if(list&&state.listDirty)drawList();else if(list)filterList($("search").value);
        view_.hidden=!list;$("map-tab").setAttribute("aria-selected",String(!list));$("list-tab").setAttribute("aria-selected",String(list));
        if(list)view.hide();$("count").hidden=list||!state.session;}
        """#
}
