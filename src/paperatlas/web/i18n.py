"""Interface text of the web app in English and Chinese (`?lang=zh`, or the browser's
Accept-Language when the URL names none). Paper text itself is never translated; in
Chinese, a paper's kind, area, decision, keyphrases and topic are shown as an offline
machine gloss (`Atlas.zh_card`, `api.web_reads.zh_gloss`)."""

from __future__ import annotations

from collections.abc import Callable

LANGUAGES = ("en", "zh")

STRINGS: dict[str, dict[str, str]] = {
    "app_name": {"en": "paperatlas", "zh": "paperatlas 论文地图"},
    "overview": {"en": "Overview", "zh": "概览"},
    "map": {"en": "Map", "zh": "地图"},
    "papers": {"en": "Papers", "zh": "论文"},
    # recommendations, downloads, compare and the list switcher (web/pages/recommend.py,
    # downloads.py, compare.py; the header's "more" menu)
    "more": {"en": "More", "zh": "更多"},
    "all_lists": {"en": "All lists", "zh": "全部列表"},
    "show_list": {"en": "Show", "zh": "显示"},
    "recommend": {"en": "Recommended", "zh": "推荐"},
    "recommend_used": {"en": "Made with", "zh": "推荐方法"},
    "recommend_models": {"en": "models", "zh": "模型"},
    "recommend_likes": {"en": "likes", "zh": "个喜欢"},
    "recommend_dislikes": {"en": "not interested", "zh": "个不感兴趣"},
    "not_interested": {"en": "Not interested", "zh": "不感兴趣"},
    "download": {"en": "Download", "zh": "下载"},
    "format_bibtex": {"en": "BibTeX (.bib)", "zh": "BibTeX (.bib)"},
    "format_ris": {"en": "RIS (.ris)", "zh": "RIS (.ris)"},
    "format_csl-json": {"en": "CSL-JSON (.json)", "zh": "CSL-JSON (.json)"},
    "format_csv": {"en": "CSV (.csv)", "zh": "CSV (.csv)"},
    "format_jsonl": {"en": "JSON Lines (.jsonl)", "zh": "JSON Lines (.jsonl)"},
    "format_markdown": {"en": "Markdown (.md)", "zh": "Markdown (.md)"},
    "digest_md": {"en": "Digest, Markdown", "zh": "摘要报告（Markdown）"},
    "digest_html": {"en": "Digest, HTML", "zh": "摘要报告（HTML）"},
    "schedule_ics": {"en": "Schedule of saved and liked papers (.ics)", "zh": "收藏论文日程（.ics）"},
    "compare": {"en": "Compare", "zh": "对比"},
    "compare_a": {"en": "List A", "zh": "列表 A"},
    "compare_b": {"en": "List B", "zh": "列表 B"},
    "compare_shared": {"en": "in both", "zh": "共有"},
    "compare_more": {"en": "More present in B", "zh": "在 B 中更多"},
    "compare_less": {"en": "Less present in B", "zh": "在 B 中更少"},
    "compare_by_topic": {"en": "Share by topic", "zh": "各主题占比"},
    "compare_by_area": {"en": "Share by area", "zh": "各领域占比"},
    "compare_change": {"en": "Change (points)", "zh": "变化（百分点）"},
    "compare_new_names": {"en": "Names only in", "zh": "仅出现于"},
    "compare_new_terms": {"en": "Terms only in", "zh": "仅出现于"},
    "search": {"en": "Search", "zh": "搜索"},
    "search_placeholder": {"en": "Search papers, e.g. machine unlearning", "zh": "搜索论文，例如：机器遗忘"},
    "topics": {"en": "Topics", "zh": "主题"},
    "topic": {"en": "Topic", "zh": "主题"},
    "broad_topics": {"en": "Broad topics", "zh": "大主题"},
    "fine_topics": {"en": "Fine topics", "zh": "细分主题"},
    "subtopics": {"en": "Subtopics", "zh": "子主题"},
    "area": {"en": "Area", "zh": "研究领域"},
    "areas": {"en": "Research areas", "zh": "研究领域"},
    "predicted_area": {"en": "Predicted area", "zh": "预测领域"},
    "area_or": {"en": "or", "zh": "或"},
    "area_tie_note": {"en": "a near-tie between the two", "zh": "两者几乎持平"},
    "area_top3": {"en": "top 3", "zh": "前三"},
    "kind": {"en": "Kind", "zh": "类型"},
    "kinds": {"en": "Kinds of contribution", "zh": "贡献类型"},
    "decision": {"en": "Decision", "zh": "录用结果"},
    "decisions": {"en": "Decisions", "zh": "录用结果"},
    "has_code": {"en": "Has code", "zh": "有代码"},
    "any": {"en": "Any", "zh": "全部"},
    "yes": {"en": "Yes", "zh": "是"},
    "no": {"en": "No", "zh": "否"},
    "sort": {"en": "Sort", "zh": "排序"},
    "sort_list": {"en": "List order", "zh": "列表顺序"},
    "sort_title": {"en": "Title", "zh": "标题"},
    "sort_rating": {"en": "Rating", "zh": "评分"},
    "sort_name": {"en": "Name", "zh": "名称"},
    "filter": {"en": "Filter", "zh": "筛选"},
    "clear": {"en": "Clear", "zh": "清除"},
    "paper_count": {"en": "papers", "zh": "篇论文"},
    "name": {"en": "Name", "zh": "名称"},
    "numbers": {"en": "Headline numbers", "zh": "关键数字"},
    "links": {"en": "Links", "zh": "链接"},
    "read_links": {"en": "Read", "zh": "阅读"},
    "link_pdf": {"en": "PDF", "zh": "PDF"},
    "link_openreview": {"en": "OpenReview", "zh": "OpenReview"},
    "link_arxiv": {"en": "arXiv", "zh": "arXiv"},
    "link_doi": {"en": "DOI", "zh": "DOI"},
    "tldr": {"en": "TL;DR (the list's own)", "zh": "TL;DR（列表自带）"},
    "reviews": {"en": "Reviewer scores", "zh": "审稿人评分"},
    "reviews_final": {"en": "After the discussion", "zh": "讨论后"},
    "score_range": {"en": "range", "zh": "范围"},
    "score_mean": {"en": "mean", "zh": "平均"},
    "score_count": {"en": "reviewers", "zh": "位审稿人"},
    "cite": {"en": "Cite (BibTeX)", "zh": "引用（BibTeX）"},
    "copy_bibtex": {"en": "Copy BibTeX", "zh": "复制 BibTeX"},
    "copied": {"en": "Copied", "zh": "已复制"},
    "copy_failed": {"en": "Select the text to copy it", "zh": "请选中文本后复制"},
    "map_panel": {"en": "Filter and topics", "zh": "筛选与主题"},
    "paper_links": {"en": "Paper", "zh": "论文链接"},
    "code_link": {"en": "code", "zh": "代码"},
    "project_link": {"en": "project", "zh": "项目"},
    "data_link": {"en": "data", "zh": "数据"},
    "paper_link": {"en": "paper", "zh": "论文"},
    "unknown_value": {"en": "(unknown)", "zh": "（未知）"},
    "gist": {"en": "In one sentence", "zh": "一句话概括"},
    "abstract": {"en": "Abstract", "zh": "摘要"},
    "keyphrases": {"en": "Keyphrases", "zh": "关键词"},
    "keywords": {"en": "Author keywords", "zh": "作者关键词"},
    "similar": {"en": "Similar papers", "zh": "相似论文"},
    "similar_missing": {"en": "This atlas has no vectors of", "zh": "本图谱缺少以下模型的向量："},
    "similar_embed_adds": {
        "en": "adds them, and similar papers are then found better",
        "zh": "可补充这些向量，使相似论文更准确",
    },
    "top_names": {"en": "Named contributions", "zh": "代表性成果"},
    "top_terms": {"en": "Distinctive phrases", "zh": "特征短语"},
    "size": {"en": "Papers", "zh": "论文数"},
    "rating": {"en": "Rating", "zh": "评分"},
    "lists": {"en": "Lists", "zh": "列表"},
    "follows": {"en": "Following", "zh": "关注"},
    "following": {"en": "Following ✓", "zh": "已关注 ✓"},
    "followed": {"en": "What you follow", "zh": "我的关注"},
    "follow_search": {"en": "Follow this search", "zh": "关注此搜索"},
    "follow_author": {"en": "Follow author", "zh": "关注作者"},
    "follow_topic": {"en": "Follow this topic", "zh": "关注此主题"},
    "unfollow": {"en": "Unfollow", "zh": "取消关注"},
    "no_follows": {
        "en": "Nothing followed yet: follow a search, an author (on a paper's page) or a topic.",
        "zh": "尚未关注任何内容：可在搜索页、论文页（作者）或主题页关注。",
    },
    "feed": {"en": "Atom feed", "zh": "Atom 订阅"},
    "feed_all": {"en": "Atom feed of everything followed", "zh": "全部关注的 Atom 订阅"},
    "since": {"en": "since", "zh": "始于"},
    "new_since_visit": {"en": "New since your last visit", "zh": "上次查看以来的新论文"},
    "new_papers": {"en": "new papers", "zh": "篇新论文"},
    "nothing_new": {"en": "Nothing new since your last visit.", "zh": "上次查看以来没有新论文。"},
    "mark_seen": {"en": "Mark all seen", "zh": "全部标为已看"},
    "marked_seen": {"en": "Marked seen ✓", "zh": "已标为已看 ✓"},
    "outliers": {"en": "Outliers", "zh": "离群论文"},
    "label_other": {"en": "{n} not matching the label", "zh": "{n} 篇与标签不符"},
    "label_other_note": {
        "en": "papers whose own title and abstract hold none of the label's words",
        "zh": "标题和摘要中不含标签词语的论文",
    },
    "label_shown_fine": {
        "en": "{n} shown under their fine topic's label",
        "zh": "{n} 篇以其细分主题的标签显示",
    },
    "label_within": {
        "en": "a fine topic of the field's “{label}”, whose label these papers' text does not hold",
        "zh": "领域主题“{label}”下的细分主题（这些论文的文字不含该主题标签的词语）",
    },
    "label_other_of": {
        "en": "papers placed near the field's “{label}” whose text holds none of its labels' words",
        "zh": "位于领域主题“{label}”附近、文字不含其标签词语的论文",
    },
    "outlier_note": {
        "en": "far from other papers; placed in its nearest topic",
        "zh": "与其他论文距离较远，已归入最近的主题",
    },
    "like": {"en": "Like", "zh": "收藏"},
    "liked": {"en": "Liked", "zh": "已收藏"},
    "no_map": {
        "en": "No map yet. Build it with: paperatlas map",
        "zh": "尚未生成地图，请运行：paperatlas map",
    },
    "no_papers": {
        "en": "No papers yet. Add a list with: paperatlas add FILE",
        "zh": "还没有论文，请运行：paperatlas add FILE",
    },
    "no_results": {"en": "No papers match.", "zh": "没有匹配的论文。"},
    "results_for": {"en": "Results for", "zh": "搜索结果："},
    "not_found": {"en": "Not found", "zh": "未找到"},
    "not_found_text": {"en": "There is no such page or paper here.", "zh": "这里没有这个页面或论文。"},
    "back_home": {"en": "Back to the overview", "zh": "返回概览"},
    "error": {"en": "Something went wrong", "zh": "出错了"},
    "map_hint": {
        "en": "Scroll or pinch to zoom, drag to pan, click a dot to open the paper. "
        "On the focused map: arrow keys pan, + and - zoom, 0 resets.",
        "zh": "滚动或双指缩放，拖动平移，点击圆点查看论文。地图获得焦点时：方向键平移，+ 和 - 缩放，0 复位。",
    },
    "lod_note": {
        "en": "{shown} of {papers} papers drawn: zoom in for more",
        "zh": "已绘制 {shown} / {papers} 篇论文：放大可见更多",
    },
    # the map page with paper filters: its topic counts and links are of the papers that pass
    "map_of_all_for_list": {
        "en": "This list has no map of its own: this is the map of all papers, its topics counted for the list's papers (paperatlas map --list builds its own)",
        "zh": "该列表还没有自己的地图：这是全部论文的地图，主题计数只算该列表的论文（paperatlas map --list 可单独建图）",
    },
    "map_filtered": {
        "en": "Topic counts and links: only the papers that pass",
        "zh": "主题计数与链接：仅含符合筛选条件的论文",
    },
    "topics_on_map": {"en": "Topics on the map", "zh": "地图上的主题"},  # /papers' link to /map, filters on
    "map_passing": {
        "en": "{n} of the topic's {size} papers pass the filters",
        "zh": "该主题 {size} 篇中 {n} 篇符合筛选条件",
    },
    "map_filter": {"en": "Highlight titles containing…", "zh": "高亮标题包含…"},
    # a big map draws a sample: its filter looks at the drawn papers only, and says so
    "lod_filter": {"en": "Highlight drawn titles containing…", "zh": "高亮已绘制的标题包含…"},
    "lod_filter_note": {
        "en": "{matches} of the {shown} drawn papers match; search finds all {papers}",
        "zh": "已绘制的 {shown} 篇中 {matches} 篇匹配；搜索可查全部 {papers} 篇",
    },
    # ... unless the server answers it: the papers of the whole map whose titles hold the words
    "lod_match_note": {
        "en": "{found} papers' titles have these words; {drawn} of them drawn",
        "zh": "{found} 篇论文的标题含这些词；已绘制其中 {drawn} 篇",
    },
    "lod_match_more": {
        "en": "more than {found} papers' titles have these words; {drawn} of them drawn, search finds all",
        "zh": "超过 {found} 篇论文的标题含这些词；已绘制其中 {drawn} 篇，搜索可查全部",
    },
    "previous": {"en": "Previous", "zh": "上一页"},
    "next": {"en": "Next", "zh": "下一页"},
    "page": {"en": "Page", "zh": "第"},
    "why": {"en": "Why", "zh": "匹配原因"},
    "in_your_note": {"en": "In your note", "zh": "见于你的笔记"},
    "tagged": {"en": "Tagged", "zh": "你的标签"},
    "at_a_glance": {"en": "At a glance", "zh": "一览"},
    "with_code": {"en": "with code", "zh": "附代码"},
    "largest_topics": {"en": "Largest topics", "zh": "最大的主题"},
    "all_topics": {"en": "All topics", "zh": "全部主题"},
    "open_map": {"en": "Open the map", "zh": "打开地图"},
    "untitled": {"en": "(untitled)", "zh": "（无标题）"},
    "title_only": {"en": "title only", "zh": "仅标题"},
    "title_only_note": {
        "en": "Title only: the list this paper came from gives no abstract.",
        "zh": "仅有标题：来源列表没有摘要。",
    },
    "language": {"en": "中文", "zh": "English"},
    "search_mode": {"en": "Mode", "zh": "模式"},
    # a search's mode (SearchResult.mode)
    "mode_hybrid": {"en": "hybrid", "zh": "混合"},
    "mode_keyword": {"en": "keyword", "zh": "关键词"},
    "mode_semantic": {"en": "semantic", "zh": "语义"},
    "mode_cross-lingual": {"en": "cross-lingual", "zh": "跨语言"},
    "mode_similar": {"en": "similar", "zh": "相似论文"},
    # a hit's "why" line, part by part (web/pages/search.py `why_line`)
    "why_terms": {"en": "terms", "zh": "匹配词"},
    "why_meaning": {"en": "meaning", "zh": "语义相似度"},
    "why_in_note": {"en": "in your note", "zh": "见于你的笔记"},
    "why_tagged": {"en": "tagged", "zh": "你的标签"},
    "read_as": {"en": "searched as", "zh": "按英文检索"},
    "showing_results_for": {"en": "Showing results for", "zh": "显示的是以下查询的结果："},
    "search_as_typed": {"en": "search instead as typed:", "zh": "仍按原文搜索："},
    "reset_view": {"en": "Reset view", "zh": "重置视图"},
    # the reference atlas (the field) on the map and topic pages
    "field_note": {
        "en": "Grey: the field, {title} ({papers} papers). In colour: this list, in the field's topics.",
        "zh": "灰色：整个领域 {title}（{papers} 篇论文）。彩色：本列表的论文，按领域的主题分组。",
    },
    "layer_label": {"en": "Topics: ", "zh": "主题："},
    "layer_own": {"en": "this list's own", "zh": "本列表自己的主题"},
    "layer_field": {"en": "the field's ({title})", "zh": "领域的主题（{title}）"},
    "field_outlier": {
        "en": "far from the field's topics: placed in the nearest",
        "zh": "离领域各主题都较远：归入最近的主题",
    },
    "field_size": {
        "en": "{n} papers of the field ({name}) are in this topic",
        "zh": "领域（{name}）中有 {n} 篇论文属于这个主题",
    },
    "fts_fallback": {"en": "Keyword search only (no vectors stored).", "zh": "仅关键词搜索（未存储向量）。"},
    "in_topic": {"en": "in topic", "zh": "所属主题"},
    "parent_topic": {"en": "Part of", "zh": "所属大主题"},
    "zh_card": {"en": "Chinese card", "zh": "中文卡片"},
    "machine_gloss_note": {
        "en": "Machine gloss: terms chosen offline by dictionaries and a multilingual model.",
        "zh": "机器释义：术语由离线词典与多语模型自动选取，未经人工校对。",
    },
    "zh_about": {"en": "About", "zh": "主题词"},
    "model_summary": {"en": "Summary", "zh": "模型摘要"},
    "by_model": {"en": "written by the model", "zh": "由模型生成："},
    "zh_number": {"en": "Headline number", "zh": "主要数字"},
    "display_title_note": {
        "en": "Title written by paperatlas: the list gives none.",
        "zh": "标题由 paperatlas 生成：原列表没有标题。",
    },
    # the search page while `paperatlas open` computes the heavier models (web/status.py)
    "status_line": {
        "en": "Search answers with {answering} now; still being computed: {pending}.",
        "zh": "搜索目前使用：{answering}；仍在计算：{pending}。",
    },
    "status_left": {"en": "About {minutes} min left.", "zh": "约剩 {minutes} 分钟。"},
    "status_vocabulary": {"en": "Chinese query terms", "zh": "中文查询词表"},
    # the filter form of /search and /papers (web/filtering.py)
    "filter_list": {"en": "List", "zh": "列表"},
    "filter_tag": {"en": "Tag", "zh": "标签"},
    "filter_state": {"en": "State", "zh": "状态"},
    "filter_state_read": {"en": "Read", "zh": "已读"},
    "filter_state_skipped": {"en": "Skipped", "zh": "已跳过"},
    "filter_state_saved": {"en": "Saved for later", "zh": "稍后阅读"},
    "filter_state_liked": {"en": "Liked", "zh": "已收藏"},
    "filter_state_unread": {"en": "Unread", "zh": "未读"},
    "filter_query": {"en": "Words", "zh": "检索词"},
    "answered_by": {"en": "answered by", "zh": "检索信号"},
    "signal_keywords": {"en": "keywords", "zh": "关键词"},
    "signal_names": {"en": "paper names", "zh": "论文名称"},
    "my_topics": {"en": "My topics (followed, liked)", "zh": "我的主题（关注的、喜欢的）"},
    "signal_notes": {"en": "your notes and tags", "zh": "你的笔记和标签"},
    # what a person keeps: triage, notes, tags, likes and collections (web/pages/keep.py)
    "mark_read": {"en": "Mark read", "zh": "标为已读"},
    "mark_skipped": {"en": "Skip", "zh": "跳过"},
    "mark_saved": {"en": "Save for later", "zh": "稍后阅读"},
    "state_read": {"en": "Read", "zh": "已读"},
    "state_skipped": {"en": "Skipped", "zh": "已跳过"},
    "state_saved": {"en": "Saved for later", "zh": "稍后阅读"},
    "triage": {"en": "Triage", "zh": "筛读"},
    "note": {"en": "Note", "zh": "笔记"},
    "note_help": {
        "en": "Markdown: **bold**, *italic*, lists, [links](https://…). Saved in this atlas only.",
        "zh": "支持 Markdown：**粗体**、*斜体*、列表、[链接](https://…)。只保存在本地图谱中。",
    },
    "note_save": {"en": "Save note", "zh": "保存笔记"},
    "note_saved": {"en": "Saved.", "zh": "已保存。"},
    "note_failed": {"en": "Not saved:", "zh": "未保存："},
    "tags": {"en": "Tags", "zh": "标签"},
    "tag_add": {"en": "Add tag", "zh": "添加标签"},
    "tag_remove": {"en": "Remove tag", "zh": "移除标签"},
    "tag_placeholder": {"en": "new tag, e.g. to-read", "zh": "新标签，例如 to-read"},
    "no_tags": {"en": "No tags yet: add one on a paper's page.", "zh": "还没有标签：在论文页面添加。"},
    "tag_papers": {"en": "Papers tagged", "zh": "带有标签的论文"},
    "likes": {"en": "Likes", "zh": "收藏"},
    "no_likes": {
        "en": "Nothing liked yet: press ☆ (or l) on a paper.",
        "zh": "还没有收藏：在论文上按 ☆（或 l）。",
    },
    "collections": {"en": "Collections", "zh": "收藏夹"},
    "collection": {"en": "Collection", "zh": "收藏夹"},
    "no_collections": {
        "en": "No collections yet: paperatlas like ID --into NAME makes one.",
        "zh": "还没有收藏夹：paperatlas like ID --into NAME 可新建。",
    },
    "liked_count": {"en": "liked", "zh": "喜欢"},
    "disliked_count": {"en": "not wanted", "zh": "不感兴趣"},
    "keys": {"en": "Keyboard", "zh": "键盘快捷键"},
    "keys_show": {"en": "Keyboard shortcuts (?)", "zh": "键盘快捷键（?）"},
    "key_next": {"en": "next paper", "zh": "下一篇"},
    "key_prev": {"en": "previous paper", "zh": "上一篇"},
    "key_open": {"en": "open the paper", "zh": "打开论文"},
    "key_read": {"en": "mark read (again: unmark)", "zh": "标为已读（再按取消）"},
    "key_skip": {"en": "skip (again: unmark)", "zh": "跳过（再按取消）"},
    "key_like": {"en": "like / unlike", "zh": "收藏 / 取消收藏"},
    "key_save": {"en": "save for later (again: unmark)", "zh": "稍后阅读（再按取消）"},
    "key_help": {"en": "show or hide this help", "zh": "显示或隐藏本帮助"},
}


# a search's notes in Chinese, by the note's key; {names} are the values it carries
# (search/notes.py). A note with no wording here keeps its English text.
SEARCH_NOTES_ZH: dict[str, str] = {
    "searched_as_simplified": "按“{query}”搜索（已转为简体字）",
    "searched_as_framed": "按“{query}”搜索（已略去请求论文的字词）",
    "searched_as_simplified_framed": "按“{query}”搜索（已转为简体字；已略去请求论文的字词）",
    "no_minilm": "本图谱还没有 {minilm} 向量，语义排序只用 {model}；`paperatlas embed` 可补上",
    "no_minilm_likeness": "本图谱还没有 {minilm} 向量，相似度只由关键词和 {models} 判断；`paperatlas embed` 可补上",
    "no_minilm_likeness_keywords": "本图谱还没有 {minilm} 向量，相似度只由关键词判断；`paperatlas embed` 可补上",
    "no_vectors_translated": (
        "{language}查询按它对应的本图谱英文术语检索（{translation}）；"
        "`paperatlas embed` 可加上跨语言语义（{model} 向量）"
    ),
    "no_vectors_other_language": (
        "{language}查询：本图谱还没有 {model} 向量，无法跨语言按语义检索；请先运行 `paperatlas embed`"
    ),
    "no_vectors_other_language_terms": (
        "{language}查询：本图谱还没有 {model} 向量，无法跨语言按语义检索；请先运行 `paperatlas embed`；"
        "下面是其已知术语的关键词匹配"
    ),
    "no_vectors": "本图谱还没有向量：运行 `paperatlas embed` 后可按语义检索",
    "no_vectors_keywords": "本图谱还没有向量：运行 `paperatlas embed` 后可按语义检索；下面只是关键词匹配",
    "keywords_cannot_match": "关键词检索无法用{language}查询匹配英文摘要；请不要只用关键词检索",
    "model_failed": "无法用 {model} 按语义检索：{error}",
    "no_match_filters": "没有论文符合筛选条件",
    "no_match_query": "没有论文与此查询匹配",
    "query_cut": "查询过长，只取前 {limit} 个字符",
    "text_cut": "文本过长，只取前 {limit} 个字符",
}
LANGUAGE_NAMES_ZH = {
    "zh": "中文",
    "ja": "日文",
    "ko": "韩文",
    "ru": "俄文",
    "ar": "阿拉伯文",
    "he": "希伯来文",
    "el": "希腊文",
    "hi": "印地文",
    "th": "泰文",
    "fr": "法文",
    "de": "德文",
    "es": "西班牙文",
    "pt": "葡萄牙文",
    "it": "意大利文",
    "nl": "荷兰文",
    "en": "英文",
}


def search_note(note: str, lang: str) -> str:
    """A search's note in `lang`: worded from its key and values where that language has
    a wording for it, else its English text (a note from an older caller is plain text)."""
    wording = SEARCH_NOTES_ZH.get(getattr(note, "key", "")) if lang == "zh" else None
    if wording is None:
        return str(note)
    values = dict(getattr(note, "values", {}))
    if "language" in values:
        values["language"] = LANGUAGE_NAMES_ZH.get(values["language"], values["language"])
    return wording.format(**values)


def search_notes(notes: list[str], lang: str) -> str:
    """A search's notes as one line in `lang`."""
    return ("；" if lang == "zh" else "; ").join(search_note(n, lang) for n in notes)


def lang_of(value: str | None) -> str:
    return value if value in LANGUAGES else "en"


def lang_from_header(accept_language: str | None) -> str:
    """The language an Accept-Language header prefers among LANGUAGES ("zh-CN,zh;q=0.9,
    en;q=0.8" -> zh); en when it names none of them."""
    best, best_q = "en", 0.0
    for item in (accept_language or "").split(",")[:32]:
        tag, _, params = item.strip().partition(";")
        q = 1.0
        if params.strip().startswith("q="):
            try:
                q = float(params.strip()[2:])
            except ValueError:
                continue
        primary = tag.strip().lower().split("-")[0]
        # the first of equal weights wins: a header lists what it prefers first
        if primary in LANGUAGES and q > best_q:
            best, best_q = primary, q
    return best


def translator(lang: str) -> Callable[[str], str]:
    """t(key) -> the interface string in `lang` (the key itself if unknown)."""

    def t(key: str) -> str:
        entry = STRINGS.get(key)
        return entry.get(lang) or entry["en"] if entry else key

    return t
