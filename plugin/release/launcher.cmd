@echo off
rem The provider plugin `platform` of pulumi-platform on Windows: its code with the node on PATH (22.19 or later).
node "%~dp0dist\provider\plugin\main.js" %*
