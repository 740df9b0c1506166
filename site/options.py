"""The site's tunable sizes and chart names, free of imports so the CLI's help can show them cheaply."""

STATIC_CHART_LIMIT = 60  # solutions whose pages get build-time SVG charts; above, the browser draws them
TOP_BARS = 30  # bars per chart on the index; a 10,000-bar chart is neither readable nor fast
BAR_METRICS = ("achieved_iops_per_disk", "iops_per_dollar", "mb_per_dollar", "perf_per_watt")
ESRP_CHARTS = ("log_playback", "backup_throughput")  # ESRP's soft-recovery and backup tests (site/esrp_charts.py)
PLOT_METRICS = (*BAR_METRICS, "latency", "spread", *ESRP_CHARTS)
