"""The designer's workbench: a local web app (`sim serve`) over the typed API (`sim.api.public`).

FastAPI (on Starlette) serves Jinja2 templates (autoescaped) and the vendored htmx (static/htmx.min.js, its licence
beside it: no network at run time); jobs (run, compare, sweep, ladder, tune) are played in worker processes
(`concurrent.futures.ProcessPoolExecutor`, or on the Dask cluster a scheduler address names) and recorded with their
results in SQLite (reports/web/jobs.sqlite), so they survive a restart. Modules, one job each:

    config     the server's settings (address, token, folders, workers), checked once
    safety     paths: only the scenarios/ and reports/ folders are read or written through the app
    forms      the form fields of a scenario, generated from the parameter specs, and their validation (`--set`'s)
    words      the API's one-line errors in a form's words (its fields as it names them, not the CLI's options)
    store      the SQLite database of jobs and results
    jobs       the job specs, their permanent key, the worker-process side that plays them through the API
    app        the FastAPI application: templates, static files, token, error pages
    routes/    the pages and endpoints, one module per area (pick, jobs, results, files)
    server     `sim serve`: uvicorn, clean Ctrl-C

Layer: above `sim.api` (it plays through it) and below `sim.cli` (which starts it); nothing else imports it.
"""
