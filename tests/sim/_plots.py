"""What the page tests check of a figure: every title and label inside it."""

from __future__ import annotations


def texts_outside(fig) -> list[str]:
    """The titles and axis labels of ``fig`` (a colorbar's label among them) that reach past its edges, drawn under
    the reports' rc settings as the pages draw them."""
    import matplotlib
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    from sim.pages import plots

    with matplotlib.rc_context(plots.RC):
        FigureCanvasAgg(fig).draw()
        r = fig.canvas.get_renderer()
        out = []
        for t in [t for ax in fig.axes for t in (ax.title, ax.xaxis.label, ax.yaxis.label)]:
            if t.get_visible() and t.get_text().strip():
                b = t.get_window_extent(r)
                if b.x0 < -1 or b.y0 < -1 or b.x1 > fig.bbox.width + 1 or b.y1 > fig.bbox.height + 1:
                    out.append(t.get_text())
    return out
