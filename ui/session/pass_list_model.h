// The hardening chain as a table for the pass stepper: row 0 is the graph as
// loaded, then one row per pass run (folding passes once per round), with
// the pass's counts, node count, time and remarks. The snapshot texts are
// exposed as roles so that the diff view needs nothing but this model.
#pragma once

#include "t2n/harden.h"

#include <QAbstractTableModel>
#include <QHash>
#include <QSortFilterProxyModel>

namespace t2n::ui {

/// "fold_constant_ifs (round 2)": a pass of the chain as a person reads it.
QString passTitle(const harden::PassRecord& rec);

class PassListModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Name, Changes, Nodes, Time, Remarks, ColumnCount };
    enum Role {
        GraphTextRole = Qt::UserRole + 1, ///< graph text after this row's pass
        BeforeTextRole,                   ///< graph text before it (the previous snapshot)
        IsNoOpRole,                       ///< the pass changed nothing (or was skipped)
        RemarksRole,                      ///< QStringList of remarks
        PassNameRole,                     ///< the pass's name without round
        RoundRole,
        SkippedRole,
        DescriptionRole, ///< the pass's one-line summary from the engine's pass table
        NodeDeltaRole,   ///< nodes after the pass minus nodes before it
    };

    explicit PassListModel(QObject* parent = nullptr);

    void setDiagnostics(const harden::HardenDiagnostics& d);
    const harden::HardenDiagnostics& diagnostics() const { return d_; }
    /// Row of the first pass named `name` (any round), or -1.
    int rowOfPass(const QString& name) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation o, int role = Qt::DisplayRole) const override;

private:
    const harden::PassRecord* record(int row) const;
    QString graphTextAt(int row) const;

    harden::HardenDiagnostics d_;
    QHash<QString, QString> summaries_; ///< pass name -> one-line summary
};

/// Hides the passes that changed nothing when asked (the input row stays).
class PassFilterModel : public QSortFilterProxyModel {
    Q_OBJECT
public:
    explicit PassFilterModel(QObject* parent = nullptr);
    void setHideNoOp(bool hide);
    bool hideNoOp() const { return hideNoOp_; }

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;

private:
    bool hideNoOp_ = false;
};

} // namespace t2n::ui
