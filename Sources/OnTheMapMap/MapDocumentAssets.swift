/// The style and script inlined into exported maps.
enum MapDocumentAssets {
    static let svgCSS = """
        .sea{fill:#dbe9f4}.land{fill:#f4f1e8;stroke:#9a8f78;stroke-width:1px;vector-effect:non-scaling-stroke}\
        .border{fill:none;stroke:#c2b8a3;stroke-width:.6px;vector-effect:non-scaling-stroke}\
        .marker{cursor:pointer}.marker circle{fill:#d6402b;stroke:#fff;stroke-width:1px;vector-effect:non-scaling-stroke}\
        .marker.mine circle{fill:#6a2bd6}\
        .marker text{fill:#fff;font:bold 10px system-ui,sans-serif;text-anchor:middle;dominant-baseline:central;pointer-events:none}
        """

    /// How close on screen, in pixels, markers are drawn as one cluster.
    static let clusterReach = 28

    static let css = """
        html,body{margin:0;height:100%;font:14px/1.4 system-ui,sans-serif;color:#222}\
        body{display:flex;flex-direction:column}\
        header{display:flex;gap:1em;align-items:center;padding:.5em 1em;background:#fff;border-bottom:1px solid #ddd}\
        #search{flex:0 1 20em;padding:.3em .5em;font:inherit}.hint{color:#888;margin-left:auto}\
        main{position:relative;flex:1;overflow:hidden}#map{width:100%;height:100%;display:block;cursor:grab;touch-action:none}\
        #map.dragging{cursor:grabbing}\(svgCSS).marker.hidden,.marker.clustered{display:none}\
        .marker.selected circle{stroke:#000;stroke-width:2px}.cluster{cursor:pointer}\
        .cluster circle{fill:#d6402b;stroke:#d6402b;stroke-opacity:.3;stroke-width:10px;vector-effect:non-scaling-stroke}\
        .cluster.mine circle{fill:#6a2bd6;stroke:#6a2bd6}.cluster.selected circle{stroke:#000;stroke-opacity:.5}\
        .cluster text{fill:#fff;font:bold 11px system-ui,sans-serif;text-anchor:middle;dominant-baseline:central;pointer-events:none}\
        .marker:focus,.cluster:focus{outline:none}\
        .marker:focus-visible circle,.cluster:focus-visible circle{stroke:#1a5fb4;stroke-width:3px;stroke-opacity:1}\
        #popup{position:absolute;min-width:12em;max-width:24em;padding:.6em .8em;background:#fff;border-radius:6px;\
        box-shadow:0 2px 10px rgba(0,0,0,.25);word-wrap:break-word}#popup[hidden]{display:none}\
        #popup h2{margin:0 1.2em .4em 0;font-size:1em}#popup ul{list-style:none;margin:0;padding:0;max-height:20em;overflow-y:auto}\
        #popup li:first-child{padding-right:1.2em}#popup li+li{margin-top:.4em;padding-top:.4em;border-top:1px solid #eee}\
        #popup a{color:#1a5fb4}.you{color:#6a2bd6}\
        #close{position:absolute;top:.2em;right:.3em;border:0;background:none;font-size:1.2em;cursor:pointer}
        """

    /// Zoom (wheel, `+`/`-`, double-click, two-finger pinch) and pan (drag) change the SVG's viewBox;
    /// markers keep their size on screen. A marker holds one `.student` per student at its point; its
    /// count, its colour and its popup follow those the search leaves, so a shared point is purple
    /// only while you are among them. Markers and clusters take the keyboard focus (Tab); Enter or
    /// Space does what a click does.
    ///
    /// Markers within `clusterReach` pixels on screen of a cluster's first marker are drawn as one
    /// cluster with the number of students in it, as map sites do (Leaflet.markercluster), at every
    /// zoom and after every search: at world zoom a hundred pins in Europe would otherwise cover each
    /// other. Hovering a cluster lists its students; a click zooms in to fit its markers, or, when
    /// they stay one cluster at the closest zoom, pins that list. An open list follows its marker
    /// (`anchor`: the one opened, or a cluster's first) into and out of clusters.
    static let script = """
        (function(){
        "use strict";
        var svg=document.getElementById("map"),popup=document.getElementById("popup"),search=document.getElementById("search"),
        count=document.getElementById("count"),heading=document.getElementById("popup-heading"),list=document.getElementById("popup-list"),
        entry=document.getElementById("popup-entry").content.firstElementChild,
        markers=Array.prototype.slice.call(document.querySelectorAll(".marker")),total=document.querySelectorAll(".student").length,
        vb=svg.viewBox.baseVal,selected=null,anchor=null,drag=null,fingers=new Map(),pinch=null,NS="http://www.w3.org/2000/svg",reach=\(clusterReach),grouped=0,
        layer=document.createElementNS(NS,"g");
        var box={x:vb.x,y:vb.y,w:vb.width,h:vb.height};
        layer.id="clusters";document.getElementById("markers").after(layer);
        markers.forEach(function(m){var t=m.transform.baseVal.getItem(0).matrix;m.at={x:t.e,y:t.f};});
        function perPixel(r){return Math.max(box.w/r.width,box.h/r.height);}
        function apply(){vb.x=box.x;vb.y=box.y;vb.width=box.w;vb.height=box.h;var unit=perPixel({width:svg.clientWidth,height:svg.clientHeight});
        markers.forEach(function(m){m.transform.baseVal.getItem(1).setScale(unit,unit);});if(unit!==grouped)group(unit);place();}
        function group(unit){grouped=unit;var far=reach*unit,heads=[],cells=new Map(),pinned=popup.dataset.pinned;
        layer.replaceChildren();
        markers.forEach(function(m){m.classList.remove("clustered");m.cluster=null;if(m.classList.contains("hidden"))return;
        var cx=Math.floor(m.at.x/far),cy=Math.floor(m.at.y/far),head=null;
        for(var i=-1;i<=1;i++)for(var j=-1;j<=1;j++)(cells.get((cx+i)+","+(cy+j))||[]).forEach(function(h){
        if(Math.abs(h.at.x-m.at.x)<=far&&Math.abs(h.at.y-m.at.y)<=far&&(!head||h.order<head.order))head=h;});
        if(head){head.members.push(m);return;}
        head={at:m.at,members:[m],order:heads.length};heads.push(head);
        var cell=cx+","+cy;if(!cells.has(cell))cells.set(cell,[]);cells.get(cell).push(head);});
        heads.forEach(function(h){if(h.members.length>1)layer.appendChild(cluster(h.members,unit));});
        if(anchor&&anchor.classList.contains("hidden"))hide();else if(selected)show(anchor.cluster||anchor,pinned);}
        function cluster(members,unit){var c=document.createElementNS(NS,"g"),dot=document.createElementNS(NS,"circle"),
        label=document.createElementNS(NS,"text"),x=0,y=0,n=0;c.members=members;
        members.forEach(function(m){m.classList.add("clustered");m.cluster=c;x+=m.at.x;y+=m.at.y;});n=shown(c).length;
        c.setAttribute("class","cluster"+(members.some(function(m){return m.classList.contains("mine");})?" mine":""));
        c.setAttribute("transform","translate("+x/members.length+" "+y/members.length+") scale("+unit+")");
        dot.setAttribute("r",n<10?11:n<100?13:15);label.textContent=n;c.append(dot,label);
        c.setAttribute("tabindex","0");c.setAttribute("role","button");c.setAttribute("aria-label",n+" students near here: zoom in");
        c.addEventListener("click",function(ev){ev.stopPropagation();expand(c);});
        c.addEventListener("mouseenter",function(){if(!popup.dataset.pinned)show(c,false);});return c;}
        function expand(c){var xs=c.members.map(function(m){return m.at.x;}),ys=c.members.map(function(m){return m.at.y;}),
        x0=Math.min.apply(null,xs),x1=Math.max.apply(null,xs),y0=Math.min.apply(null,ys),y1=Math.max.apply(null,ys),
        r=svg.getBoundingClientRect(),margin=Math.min(80,r.width/4,r.height/4),
        unit=Math.max((x1-x0)/Math.max(r.width-2*margin,1),(y1-y0)/Math.max(r.height-2*margin,1)),
        w=Math.min(width(box.w*unit/perPixel(r)),box.w);
        box.h=box.h*w/box.w;box.w=w;box.x=(x0+x1)/2-w/2;box.y=(y0+y1)/2-box.h/2;hide();apply();
        var still=c.members[0].cluster;if(still&&c.members.every(function(m){return m.cluster===still;}))show(still,true);
        (c.members[0].cluster||c.members[0]).focus({preventScroll:true});}
        function width(w){return Math.min(Math.max(w,500),65535*2);}
        function point(ev){var r=svg.getBoundingClientRect(),s=perPixel(r);
        return {x:box.x+(ev.clientX-r.left-(r.width-box.w/s)/2)*s,y:box.y+(ev.clientY-r.top-(r.height-box.h/s)/2)*s};}
        function zoom(f,at){var w=width(box.w/f);f=box.w/w;
        box.x=at.x-(at.x-box.x)/f;box.y=at.y-(at.y-box.y)/f;box.w=w;box.h=box.h/f;apply();}
        svg.addEventListener("wheel",function(ev){ev.preventDefault();zoom(ev.deltaY<0?1.25:0.8,point(ev));},{passive:false});
        svg.addEventListener("dblclick",function(ev){if(ev.target.closest(".marker,.cluster"))return;ev.preventDefault();zoom(2,point(ev));});
        svg.addEventListener("pointerdown",function(ev){fingers.set(ev.pointerId,{clientX:ev.clientX,clientY:ev.clientY});
        if(fingers.size===2){var f=Array.from(fingers.values());pinch={apart:apart(f),w:box.w};drag=null;return;}
        if(ev.target.closest(".marker,.cluster"))return;
        drag={x:ev.clientX,y:ev.clientY,bx:box.x,by:box.y,moved:false};svg.setPointerCapture(ev.pointerId);svg.classList.add("dragging");});
        svg.addEventListener("pointermove",function(ev){if(fingers.has(ev.pointerId))fingers.set(ev.pointerId,{clientX:ev.clientX,clientY:ev.clientY});
        if(pinch&&fingers.size===2){var f=Array.from(fingers.values());
        zoom(box.w*apart(f)/(pinch.w*pinch.apart),point({clientX:(f[0].clientX+f[1].clientX)/2,clientY:(f[0].clientY+f[1].clientY)/2}));return;}
        if(!drag)return;var s=perPixel(svg.getBoundingClientRect());
        if(Math.abs(ev.clientX-drag.x)+Math.abs(ev.clientY-drag.y)>3)drag.moved=true;
        box.x=drag.bx-(ev.clientX-drag.x)*s;box.y=drag.by-(ev.clientY-drag.y)*s;apply();});
        function apart(f){return Math.max(Math.hypot(f[0].clientX-f[1].clientX,f[0].clientY-f[1].clientY),1);}
        function endDrag(ev){fingers.delete(ev.pointerId);if(fingers.size<2)pinch=null;
        if(drag&&!drag.moved)hide();drag=null;svg.classList.remove("dragging");}
        svg.addEventListener("pointerup",endDrag);svg.addEventListener("pointercancel",endDrag);
        function shown(m){if(m.members)return [].concat.apply([],m.members.map(shown));
        return Array.prototype.filter.call(m.querySelectorAll(".student"),function(s){return !s.classList.contains("hidden");});}
        function item(s){var li=entry.cloneNode(true),a=li.querySelector("a"),u=s.dataset.url||"";
        li.querySelector(".name").textContent=s.dataset.name;li.querySelector(".you").hidden=!s.classList.contains("mine");
        li.querySelector(".place").textContent=s.dataset.place;a.textContent=u;if(/^https?:\\/\\//i.test(u))a.href=u;return li;}
        function show(m,pinned){if(selected&&selected!==m)selected.classList.remove("selected");selected=m;m.classList.add("selected");
        if(!m.members)anchor=m;else if(m.members.indexOf(anchor)<0)anchor=m.members[0];
        popup.dataset.pinned=pinned?"1":"";var here=shown(m);heading.textContent=here.length+(m.members?" students near here":" students here");
        heading.hidden=here.length<2;
        list.replaceChildren.apply(list,here.map(item));popup.hidden=false;place();}
        function hide(){popup.hidden=true;popup.dataset.pinned="";if(selected)selected.classList.remove("selected");selected=anchor=null;}
        function place(){if(!selected||popup.hidden)return;var r=selected.querySelector("circle").getBoundingClientRect(),s=svg.parentNode.getBoundingClientRect();
        popup.style.left=Math.min(r.right-s.left+8,s.width-popup.offsetWidth-4)+"px";popup.style.top=Math.max(Math.min(r.top-s.top-8,s.height-popup.offsetHeight-4),4)+"px";}
        markers.forEach(function(m){
        m.addEventListener("click",function(ev){ev.stopPropagation();show(m,true);});
        m.addEventListener("mouseenter",function(){if(!popup.dataset.pinned)show(m,false);});});
        document.getElementById("close").addEventListener("click",hide);
        function fold(t){return t.normalize("NFD").replace(/[\\u0300-\\u036f]/g,"").toLowerCase();}
        function matches(s,q){return fold(s.dataset.name).indexOf(q)>=0||fold(s.dataset.place).indexOf(q)>=0;}
        search.addEventListener("input",function(){var q=fold(search.value.trim()),found=0;
        markers.forEach(function(m){m.querySelectorAll(".student").forEach(function(s){s.classList.toggle("hidden",!!q&&!matches(s,q));});
        var here=shown(m),label=m.querySelector("text");found+=here.length;m.classList.toggle("hidden",!here.length);if(label)label.textContent=here.length;
        m.classList.toggle("mine",here.some(function(s){return s.classList.contains("mine");}));});
        count.textContent=(q?found+" of "+total:total)+" students";
        group(grouped);});
        document.addEventListener("keydown",function(ev){if(ev.target===search)return;var c={x:box.x+box.w/2,y:box.y+box.h/2},
        target=ev.target.closest&&ev.target.closest(".marker,.cluster");
        if(target&&(ev.key==="Enter"||ev.key===" ")){ev.preventDefault();target.dispatchEvent(new MouseEvent("click",{bubbles:true}));return;}
        if(ev.key==="+"||ev.key==="=")zoom(1.5,c);else if(ev.key==="-")zoom(1/1.5,c);else if(ev.key==="Escape")hide();});
        window.addEventListener("resize",apply);apply();
        })();
        """
}
